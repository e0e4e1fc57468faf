import { ErrorCode, TENANT_ROLES } from '@esl/contract';
import { decodePng, decodeTagImage, indexToRgba, SAMPLE_DATA, TemplateDocument } from '@esl/labels';
import { describe, expect, it } from 'vitest';
import { DEMO_TEMPLATES } from '../../demo/templates';
import { renderJobs } from '../../infra/render/render';
import { storeImages } from '../../infra/render/repository';
import { isRendered, type RenderedImage } from '../../infra/render/types';
import { buildShop, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { buildOperator } from '../../test/factories';
import type { TestApp } from '../../test/harness';
import { useApp } from '../../test/harness';

/** A real label for a tag of model 05 (250 × 122, black/white/red), with its price. */
async function label(price: number): Promise<RenderedImage> {
  const demo = DEMO_TEMPLATES.map((d) => TemplateDocument.parse(d.doc)).find((d) => d.size.model === '05');
  if (!demo) throw new Error('no demo template for model 05');
  const [out] = await renderJobs([
    { tenantId: 0, tagId: 0, doc: demo, data: { ...SAMPLE_DATA, price }, model: '05', colour: 'bwr' },
  ]);
  if (!isRendered(out)) throw new Error(out.error);
  return out;
}

async function screen(t: TestApp, token: string, body: object, lang: 'en' | 'zh-CN' = 'en') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/mgr/tag/screen',
    headers: { token, 'accept-language': lang },
    payload: body,
  });
  const isPng = res.headers['content-type'] === 'image/png';
  return {
    status: res.statusCode,
    png: isPng ? new Uint8Array(res.rawPayload) : null,
    envelope: isPng ? null : (res.json() as { code: number; msg: string }),
  };
}

/** The PNG's pixels against the tag image's own, decoded from its bytes. */
function expectPicture(png: Uint8Array | null, image: RenderedImage) {
  expect(png).not.toBeNull();
  const decoded = decodePng(png as Uint8Array);
  const own = decodeTagImage(image.bytes);
  expect([decoded.width, decoded.height]).toEqual([own.width, own.height]);
  expect(Buffer.from(decoded.data).equals(Buffer.from(indexToRgba(own)))).toBe(true);
}

describe.each(await testDatabases())('/mgr/tag/screen on $name', (db) => {
  const t = useApp(db);

  it('answers the stored desired and shown images as PNGs, decoded from their bytes', async () => {
    const { app } = t();
    const { tokens, store, tenant } = await buildShop(app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const tag = await buildTag(app, at, { model: '05' });
    const [old, fresh] = [await label(1.5), await label(2.5)];
    expect(old.hash).not.toBe(fresh.hash);
    await storeImages(app.services.db, tenant.id, [old, fresh], app.services.config.now());

    const none = await screen(t(), tokens.clerk, { id: tag.id, which: 'desired' });
    expect(none.envelope).toMatchObject({
      code: ErrorCode.NOT_FOUND,
      msg: `Tag ${tag.hardware_id} has no label to show`,
    });
    const zh = await screen(t(), tokens.clerk, { id: tag.id }, 'zh-CN');
    expect(zh.envelope).toMatchObject({
      code: ErrorCode.NOT_FOUND,
      msg: `价签 ${tag.hardware_id} 还没有显示过已知的画面`,
    });

    await app.services.db
      .updateTable('tags')
      .set({ desired_hash: fresh.hash, shown_ver: old.ver })
      .where('id', '=', tag.id)
      .execute();
    const desired = await screen(t(), tokens.clerk, { id: tag.id, which: 'desired' });
    expect(desired.status).toBe(200);
    expectPicture(desired.png, fresh);
    const shown = await screen(t(), tokens.clerk, { id: tag.id }); // `which` defaults to shown
    expectPicture(shown.png, old);
    // The two pictures differ (the price), so neither answer could be the other's.
    expect(Buffer.from(shown.png ?? []).equals(Buffer.from(desired.png ?? []))).toBe(false);

    // A version with no stored image behind it: nothing to show, not someone else's picture.
    await app.services.db.updateTable('tags').set({ shown_ver: '0123456789abcdef' }).where('id', '=', tag.id).execute();
    expect((await screen(t(), tokens.clerk, { id: tag.id })).envelope?.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('is tenant- and store-isolated and needs tag.read', async () => {
    const { app } = t();
    const mine = await buildShop(app);
    const theirs = await buildShop(app);
    const image = await label(3.5);
    const tagOf = async (shop: typeof mine, storeId: number) => {
      const tag = await buildTag(app, { tenantId: shop.tenant.id, storeId }, { model: '05' });
      await storeImages(app.services.db, shop.tenant.id, [image], app.services.config.now());
      await app.services.db.updateTable('tags').set({ desired_hash: image.hash }).where('id', '=', tag.id).execute();
      return tag;
    };
    const other = await tagOf(theirs, theirs.store.id);
    const otherStore = await tagOf(mine, mine.otherStore.id);
    const own = await tagOf(mine, mine.store.id);
    for (const id of [other.id, otherStore.id, 999_999]) {
      const res = await screen(t(), mine.tokens.admin, { id, which: 'desired' });
      expect(res.envelope, `tag ${id}`).toMatchObject({ code: ErrorCode.NOT_FOUND });
    }
    for (const role of TENANT_ROLES) {
      const res = await screen(t(), mine.tokens[role], { id: own.id, which: 'desired' });
      expect(res.status, role).toBe(200);
      expectPicture(res.png, image);
    }
    const operator = await buildOperator(app);
    expect((await screen(t(), operator.token, { id: own.id, which: 'desired' })).envelope?.code).toBe(
      ErrorCode.FORBIDDEN,
    );
    const bad = await screen(t(), mine.tokens.admin, { id: own.id, which: 'next' });
    expect(bad.envelope?.code).toBe(ErrorCode.VALIDATION);
  });
});
