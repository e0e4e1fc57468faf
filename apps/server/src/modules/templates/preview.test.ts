import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { LABEL_FONTS, type PreviewData } from '@esl/contract';
import { COLOUR_SETS, type ColourType, INK_RGB, type Ink, SCRIPT_FONT_FILES } from '@esl/labels';
import { FONT_FILES } from '@esl/labels/node';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';
import { addTemplate, nameDoc, priceDoc } from '../../test/templates';

interface Decoded {
  width: number;
  height: number;
  /** Count of pixels per colour, keyed "r,g,b". */
  colours: Map<string, number>;
  rgba: Uint8ClampedArray;
}

/** Decodes a PNG data URL with an independent decoder (@napi-rs/canvas) and counts its colours. */
async function decode(dataUrl: string): Promise<Decoded> {
  expect(dataUrl.startsWith('data:image/png;base64,')).toBe(true);
  const bytes = Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64');
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  const colours = new Map<string, number>();
  for (let i = 0; i < data.length; i += 4) {
    expect(data[i + 3]).toBe(255);
    const key = `${data[i]},${data[i + 1]},${data[i + 2]}`;
    colours.set(key, (colours.get(key) ?? 0) + 1);
  }
  return { width: image.width, height: image.height, colours, rgba: data };
}

const require = createRequire(import.meta.url);

const rgbKey = (ink: Ink) => INK_RGB[ink].join(',');
const setKeys = (colourType: ColourType) => new Set(COLOUR_SETS[colourType].map(rgbKey));

/** The PNG's own header: colour type 3 (palette) and a palette of exactly the set's inks. */
function paletteOf(dataUrl: string): { colourType: number; palette: string[] } {
  const bytes = Buffer.from(dataUrl.split(',')[1] ?? '', 'base64');
  let offset = 8;
  let colourType = -1;
  const palette: string[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') colourType = body[9];
    if (type === 'PLTE')
      for (let i = 0; i < body.length; i += 3) palette.push(`${body[i]},${body[i + 1]},${body[i + 2]}`);
    offset += 12 + length;
  }
  return { colourType, palette };
}

describe.each(await testDatabases())('label previews on $name', (db) => {
  const t = useApp(db);

  it('answers the quantised PNG: only the colours of the template colour set', async () => {
    const { tokens } = await buildWorld(t().app);
    const token = tokens.manager; // template.read is enough
    for (const colourType of ['bw', 'bwr', 'bwry', 'bwy', 'seven'] as const) {
      const colour: Ink = colourType === 'bw' ? 'black' : colourType === 'bwy' ? 'yellow' : 'red';
      const doc = {
        ...priceDoc({ size: { model: null, w: 296, h: 152 }, colourType, dither: 'diffusion' }),
        background: 'white',
      };
      doc.elements = [
        // The price in the set's accent ink; anti-aliased glyph edges are what quantisation resolves.
        ...(doc.elements ?? []).map((e) => (e.colour === 'red' ? { ...e, colour } : e)),
        { type: 'rect', id: 'box', x: 200, y: 100, w: 90, h: 48, fill: colour, strokeWidth: 0 },
      ];
      const res = await t().call<PreviewData>(
        '/mgr/templ/preview',
        { doc, data: { name: '冬季特惠 Winter' } },
        { token },
      );
      expect(res.code, res.msg).toBe(0);
      expect(res.data).toMatchObject({ width: 296, height: 152, colourType, problems: [] });
      const header = paletteOf(res.data.png);
      expect(header.colourType).toBe(3);
      expect(new Set(header.palette)).toEqual(setKeys(colourType));
      const decoded = await decode(res.data.png);
      expect([decoded.width, decoded.height]).toEqual([296, 152]);
      for (const key of decoded.colours.keys()) expect(setKeys(colourType), `${colourType} ${key}`).toContain(key);
      expect(decoded.colours.get(rgbKey('black')) ?? 0).toBeGreaterThan(500);
      expect(decoded.colours.get(rgbKey(colour)) ?? 0).toBeGreaterThan(90 * 48 - 1);
    }
  });

  it('previews a saved template, in design orientation, and says what it could not draw', async () => {
    const { tokens } = await buildWorld(t().app);
    const token = tokens.admin;
    const tpl = await addTemplate(t(), token, { name: 'Portrait' });
    const portrait = priceDoc({ rotation: 90 });
    const saved = await t().call('/mgr/templ/alerttempData', { id: tpl.id, doc: portrait }, { token });
    expect(saved.code, saved.msg).toBe(0);
    const res = await t().call<PreviewData>(
      '/mgr/templ/preview',
      { id: tpl.id, data: { barcode: 'not-a-number' } },
      { token },
    );
    expect(res.code, res.msg).toBe(0);
    expect(res.data).toMatchObject({ width: 152, height: 296, colourType: 'bwr' });
    expect(res.data.problems.map((p) => p.element)).toEqual(['code']);
    const decoded = await decode(res.data.png);
    expect([decoded.width, decoded.height]).toEqual([152, 296]);

    // An unsaved document wins over the id, and the dithering can be overridden.
    const unsaved = await t().call<PreviewData>(
      '/mgr/templ/preview',
      { id: tpl.id, doc: nameDoc('bwy'), dither: 'ordered' },
      { token },
    );
    expect(unsaved.data).toMatchObject({ width: 200, height: 60, colourType: 'bwy', problems: [] });
  });

  it('validates the preview request', async () => {
    const { tokens } = await buildWorld(t().app);
    const token = tokens.editor;
    const cases: [object, string][] = [
      [{}, 'ID: cannot be empty'],
      [{ doc: [] }, 'Template: has the wrong format'],
      [{ doc: { ...nameDoc('bw'), colourType: 'pink' } }, 'Colours: has the wrong format'],
      [{ doc: nameDoc('bw'), dither: 'fuzzy' }, 'Dithering: has the wrong format'],
      [{ doc: nameDoc('bw'), data: { name: { nested: true } } }, 'Name: has the wrong format'],
      [{ id: 0 }, 'ID: is too small'],
    ];
    for (const [body, msg] of cases) {
      expect(await t().call('/mgr/templ/preview', body, { token }), JSON.stringify(body)).toMatchObject({
        code: 1001,
        msg,
      });
    }
    expect(await t().call('/mgr/templ/preview', { id: 999_999 }, { token })).toMatchObject({ code: 1002 });
  });

  it('draws Chinese names with the bundled CJK font, one distinct glyph per character (no tofu)', async () => {
    const { tokens } = await buildWorld(t().app);
    const token = tokens.admin;
    // With a font lacking these characters every one would come out as the same .notdef box,
    // so identical images for different characters (or no ink at all) would mean tofu.
    const chars = ['苹', '果', '牛', '奶', '鸡', '蛋'];
    const images: Decoded[] = [];
    for (const name of chars) {
      const res = await t().call<PreviewData>('/mgr/templ/preview', { doc: nameDoc('bw'), data: { name } }, { token });
      expect(res.code, res.msg).toBe(0);
      images.push(await decode(res.data.png));
    }
    const black = rgbKey('black');
    for (const [i, image] of images.entries()) {
      const ink = image.colours.get(black) ?? 0;
      // A 40 px CJK glyph covers a few hundred pixels; a hollow box or nothing would not.
      expect(ink, chars[i]).toBeGreaterThan(150);
      expect(ink, chars[i]).toBeLessThan(1200);
    }
    for (let i = 0; i < images.length; i++) {
      for (let j = i + 1; j < images.length; j++) {
        expect(Buffer.from(images[i].rgba).equals(Buffer.from(images[j].rgba)), `${chars[i]} vs ${chars[j]}`).toBe(
          false,
        );
      }
    }
    // Swapping two characters changes the picture (tofu boxes would not).
    const ab = await t().call<PreviewData>(
      '/mgr/templ/preview',
      { doc: nameDoc('bw'), data: { name: '苹果' } },
      { token },
    );
    const ba = await t().call<PreviewData>(
      '/mgr/templ/preview',
      { doc: nameDoc('bw'), data: { name: '果苹' } },
      { token },
    );
    expect(ab.data.png).not.toBe(ba.data.png);
  });

  it('serves the label fonts to the browser editor', async () => {
    for (const font of LABEL_FONTS) {
      const res = await t().app.inject({ method: 'GET', url: font.url });
      expect(res.statusCode, font.url).toBe(200);
      expect(res.headers['content-type']).toBe('font/ttf');
      expect(res.rawPayload.length).toBeGreaterThan(1_000_000);
      expect(res.rawPayload.length).toBe(Number(res.headers['content-length']));
      expect([...res.rawPayload.subarray(0, 4)]).toEqual([0, 1, 0, 0]); // TrueType
      const again = await t().app.inject({
        method: 'GET',
        url: font.url,
        headers: { 'if-none-match': String(res.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
    }
    expect((await t().app.inject({ method: 'GET', url: '/fonts/../package.json' })).statusCode).toBe(404);
    expect((await t().app.inject({ method: 'GET', url: '/fonts/other.ttf' })).statusCode).toBe(404);
  });

  it('serves every script font the editor loads on demand by its name, the Japanese one too', async () => {
    expect(SCRIPT_FONT_FILES).toEqual(expect.arrayContaining(['NotoSansJP_400Regular.ttf', 'NotoSansJP_700Bold.ttf']));
    const sizes = new Map(FONT_FILES.map((file) => [basename(file), statSync(require.resolve(file)).size]));
    for (const name of SCRIPT_FONT_FILES) {
      const res = await t().app.inject({ method: 'GET', url: `/fonts/${name}` });
      expect(res.statusCode, name).toBe(200);
      expect(res.headers['content-type']).toBe('font/ttf');
      expect(res.rawPayload.length, name).toBe(sizes.get(name));
      expect([...res.rawPayload.subarray(0, 4)], name).toEqual([0, 1, 0, 0]);
    }
  });
});
