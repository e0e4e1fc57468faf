import { type BrandFont, FONT_UPLOAD_MAX_BYTES, type PreviewData, type Template } from '@esl/contract';
import { fontFormat } from '@esl/labels';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { brandDoc, OCRB, OTF, uploadFont, WOFF2 } from '../../test/fonts';
import { useApp } from '../../test/harness';

// A tenant's brand fonts (issue 28 item 3): upload checked by content and size, listed, served to
// the tenant's editor only, drawn in its previews only; deleting one a template uses is refused.

describe.each(await testDatabases())('brand fonts ($name)', (db) => {
  const t = useApp(db);

  const upload = (token: string, name: string, bytes: Buffer, family?: string, lang = 'en') =>
    uploadFont(t().app, token, { name, bytes, lang, ...(family === undefined ? {} : { family }) });

  const ok = async <T>(path: string, body: object, token: string) => {
    const res = await t().call<T>(path, body, { token });
    expect(res.code, `${path}: ${res.msg}`).toBe(0);
    return res.data;
  };

  it('upload, list, file, isolation, preview, refusals and deletion', async () => {
    const a = await buildWorld(t().app);
    const b = await buildWorld(t().app);

    // Checked by content and size, like every upload.
    const notFont = await upload(a.tokens.admin, 'brand.ttf', Buffer.from('name,price\napple,1\n'));
    expect([notFont.code, notFont.msg]).toEqual([
      1009,
      'Invalid file: not a font file (TTF, OTF and WOFF2 are supported)',
    ]);
    const huge = Buffer.alloc(FONT_UPLOAD_MAX_BYTES + 1);
    OCRB.copy(huge);
    const tooBig = await upload(a.tokens.admin, 'huge.ttf', huge);
    expect([tooBig.code, tooBig.msg]).toEqual([1009, 'Invalid file: the font file cannot exceed 20MB']);
    expect((await upload(a.tokens.admin, 'cut.ttf', OCRB.subarray(0, 400))).code).toBe(1009);
    // A damaged WOFF2 (cut short) is refused as damaged, not stored.
    const cut = await upload(a.tokens.admin, 'cut.woff2', WOFF2.subarray(0, WOFF2.length - 200), 'Cut');
    expect([cut.code, cut.msg]).toEqual([1009, 'Invalid file: the font file is damaged and cannot be read']);
    expect((await upload(a.tokens.admin, 'noto.ttf', OCRB, 'Noto Sans SC')).code).toBe(1001);
    // The permission of editing templates: a clerk may not.
    expect((await upload(a.tokens.clerk, 'brand.ttf', OCRB, 'Acme OCR')).code).toBe(1003);

    const up = await upload(a.tokens.editor, 'brand.ttf', OCRB, 'Acme OCR');
    expect(up.code, up.msg).toBe(0);
    expect(up.data).toMatchObject({ family: 'Acme OCR', weight: 400, format: 'ttf', size: OCRB.length });
    expect((await upload(a.tokens.admin, 'again.ttf', OCRB, 'acme ocr')).code).toBe(1004);
    const listed = await ok<BrandFont[]>('/mgr/templ/fontlist', {}, a.tokens.manager);
    expect(listed.map((f) => f.family)).toEqual(['Acme OCR']);

    // The editor fetches the file with the session; another tenant cannot see, fetch or delete it.
    const fileRes = await t().app.inject({
      method: 'POST',
      url: '/api/mgr/templ/fontfile',
      headers: { token: a.tokens.manager },
      payload: { id: up.data.id },
    });
    expect(fileRes.statusCode).toBe(200);
    expect(Buffer.compare(fileRes.rawPayload, OCRB)).toBe(0);
    expect(await ok<BrandFont[]>('/mgr/templ/fontlist', {}, b.tokens.admin)).toEqual([]);
    expect((await t().call('/mgr/templ/fontfile', { id: up.data.id }, { token: b.tokens.admin })).code).toBe(1002);
    expect((await t().call('/mgr/templ/fontdelete', { id: up.data.id }, { token: b.tokens.admin })).code).toBe(1002);

    // Drawn in the tenant's previews; another tenant's preview of the same document falls back and says so.
    const doc = brandDoc('Acme OCR');
    const plain = await ok<PreviewData>('/mgr/templ/preview', { doc: brandDoc('Noto Sans SC') }, a.tokens.admin);
    const mine = await ok<PreviewData>('/mgr/templ/preview', { doc }, a.tokens.admin);
    const theirs = await ok<PreviewData>('/mgr/templ/preview', { doc }, b.tokens.admin);
    expect(mine.problems).toEqual([]);
    expect(mine.png).not.toBe(plain.png);
    expect(theirs.png).toBe(plain.png);
    expect(theirs.problems).toEqual([
      { element: 'brand', message: expect.stringContaining('"Acme OCR" is not available') },
    ]);

    // Deleting a font a template uses is refused, naming the templates, in the user's language.
    const tpl = await ok<Template>('/mgr/templ/addtemple', { name: 'Promo', model: '05' }, a.tokens.admin);
    await ok('/mgr/templ/alerttempData', { id: tpl.id, doc }, a.tokens.admin);
    expect((await ok<BrandFont[]>('/mgr/templ/fontlist', {}, a.tokens.admin))[0]?.templates).toEqual(['Promo']);
    const en = await t().call('/mgr/templ/fontdelete', { id: up.data.id }, { token: a.tokens.admin, lang: 'en' });
    expect([en.code, en.msg]).toEqual([1011, 'Still in use, cannot delete: used by template "Promo"']);
    const zh = await t().call('/mgr/templ/fontdelete', { id: up.data.id }, { token: a.tokens.admin, lang: 'zh-CN' });
    expect([zh.code, zh.msg]).toEqual([1011, '仍在使用中，无法删除：模板 “Promo” 使用该字体']);
    expect(await ok<BrandFont[]>('/mgr/templ/fontlist', {}, a.tokens.admin)).toHaveLength(1);

    // Unused again: deleted.
    await ok('/mgr/templ/alerttempData', { id: tpl.id, doc: brandDoc('Noto Sans SC') }, a.tokens.admin);
    expect(await ok('/mgr/templ/fontdelete', { id: up.data.id }, a.tokens.admin)).toEqual({ deleted: 1 });
    expect(await ok<BrandFont[]>('/mgr/templ/fontlist', {}, a.tokens.admin)).toEqual([]);
  });

  it('takes OpenType (CFF) and WOFF2 fonts: a WOFF2 is kept as the font inside it, and both draw', async () => {
    const a = await buildWorld(t().app);
    // A template names the family before it is uploaded: its thumbnail is drawn in the base font.
    const early = await ok<Template>('/mgr/templ/addtemple', { name: 'Early', model: '05' }, a.tokens.admin);
    await ok('/mgr/templ/alerttempData', { id: early.id, doc: brandDoc('Mono Brand') }, a.tokens.admin);
    const thumbnail = async () => {
      const rows = await ok<Template[]>('/mgr/templ/list', {}, a.tokens.admin);
      const url = rows.find((r) => r.id === early.id)?.thumbnail ?? '';
      return (await t().app.inject({ method: 'GET', url })).rawPayload;
    };
    const before = await thumbnail();
    expect(before.subarray(1, 4).toString()).toBe('PNG');
    const otf = await upload(a.tokens.admin, 'mono.otf', OTF, 'Mono Brand');
    expect(otf.code, otf.msg).toBe(0);
    expect(otf.data).toMatchObject({ family: 'Mono Brand', weight: 400, format: 'otf', size: OTF.length });
    // The upload redrew that template's thumbnail with the font.
    expect(Buffer.compare(await thumbnail(), before)).not.toBe(0);
    const woff2 = await upload(a.tokens.admin, 'latin.woff2', WOFF2, 'Web Brand');
    expect(woff2.code, woff2.msg).toBe(0);
    // The list says what was uploaded; the file the editor fetches is the TrueType font inside.
    expect(woff2.data).toMatchObject({ family: 'Web Brand', format: 'woff2', name: 'latin.woff2', size: WOFF2.length });
    const fileRes = await t().app.inject({
      method: 'POST',
      url: '/api/mgr/templ/fontfile',
      headers: { token: a.tokens.admin },
      payload: { id: woff2.data.id },
    });
    expect(fileRes.statusCode).toBe(200);
    expect(fileRes.rawPayload.readUInt32BE(0)).toBe(0x00010000);
    expect(fileRes.headers['content-disposition']).toContain('latin.ttf');
    expect(fontFormat(new Uint8Array(fileRes.rawPayload))).toBe('ttf');

    // Each draws the label in its own glyphs: unlike the base font's and unlike each other's.
    const plain = await ok<PreviewData>('/mgr/templ/preview', { doc: brandDoc('Noto Sans SC') }, a.tokens.admin);
    const mono = await ok<PreviewData>('/mgr/templ/preview', { doc: brandDoc('Mono Brand') }, a.tokens.admin);
    const web = await ok<PreviewData>('/mgr/templ/preview', { doc: brandDoc('Web Brand') }, a.tokens.admin);
    expect(mono.problems).toEqual([]);
    expect(web.problems).toEqual([]);
    expect(new Set([plain.png, mono.png, web.png]).size).toBe(3);
  });
});
