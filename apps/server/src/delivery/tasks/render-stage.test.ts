import type { Template } from '@esl/contract';
import { TEMPLATE_VERSION } from '@esl/labels';
import { describe, expect, it } from 'vitest';
import { Notices } from '../../notice/notices';
import { buildShop, buildStation, insertBoundTags } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import type { RenderJob } from '../render';
import { testImage } from '../testing';
import { createTaskEngine, type RenderBackend } from './engine';
import { relabelTags } from './enqueue';

// The render stage's order of work (DELIVERY.md §5.3), seen through a render backend that records
// its calls: which tags each batch draws, and when batches are drawn and written.

const doc = {
  version: TEMPLATE_VERSION,
  size: { model: '05', w: 250, h: 122 },
  colourType: 'bwr',
  elements: [{ type: 'text', id: 'name', x: 4, y: 4, w: 242, h: 40, font: { size: 28 }, binding: { key: 'name' } }],
};

describe.each(await testDatabases())('render stage ($name)', (target) => {
  const t = useApp(target);

  /** Two stations with four tags each, routed in id order (A's tags first), one template for all. */
  async function setup() {
    const { app } = t();
    const shop = await buildShop(app);
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    const token = shop.tokens.admin;
    const ok = async <T>(path: string, body: object) => {
      const res = await t().call<T>(path, body, { token });
      if (res.code !== 0) throw new Error(`${path}: ${res.msg}`);
      return res.data as T;
    };
    const template = await ok<Template>('/mgr/templ/addtemple', { name: 'order', model: '05' });
    await ok('/mgr/templ/alerttempData', { id: template.id, doc });
    await ok('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
    const stations = [await buildStation(app, at), await buildStation(app, at)];
    const byStation = new Map<number, number>();
    const tagIds: number[] = [];
    const bound = await insertBoundTags(app.services.db, at, 8, {
      hwPrefix: `C${Math.floor(Math.random() * 0xfff)
        .toString(16)
        .toUpperCase()
        .padStart(3, '0')}`,
      priceCents: (i) => 100 + i,
      now: t().clock.now(),
    });
    for (const [i, b] of bound.entries()) {
      const st = stations[i < 4 ? 0 : 1];
      const tag = await app.services.db
        .updateTable('tags')
        .set({ station_id: st.id })
        .where('tenant_id', '=', at.tenantId)
        .where('hardware_id', '=', b.hw)
        .returning('id')
        .executeTakeFirstOrThrow();
      byStation.set(tag.id, st.id);
      tagIds.push(tag.id);
    }
    await app.services.db.transaction().execute((trx) => relabelTags(trx, at, tagIds, t().clock.now()));

    const calls: Array<{ what: 'render' | 'store'; tags: number[] }> = [];
    const render: RenderBackend = {
      async render(jobs: RenderJob[]) {
        calls.push({ what: 'render', tags: jobs.map((j) => j.tagId) });
        return jobs.map((j) => {
          const image = testImage('05', j.tagId);
          return {
            tagId: j.tagId,
            hash: image.hash,
            ver: image.hash.slice(0, 16),
            bytes: image.bytes,
            width: 250,
            height: 122,
            colour: 'bwr' as const,
            size: image.bytes.length,
            problems: [],
          };
        });
      },
      async storeImages(_trx, _tenantId, images) {
        calls.push({ what: 'store', tags: images.map((i) => i.tagId) });
      },
      async loadImage() {
        return null;
      },
      async close() {},
    };
    const engine = createTaskEngine({
      db: app.services.db,
      port: { publish: async () => {}, subscribe: async () => async () => {}, close: async () => {} },
      notices: new Notices(),
      now: t().clock.now,
      render,
      renderBatch: 2,
    });
    return { engine, calls, byStation, tagIds };
  }

  it('draws every station’s tags from the first batch on, not one station’s tags after another’s', async () => {
    const { engine, calls, byStation } = await setup();
    engine.kick();
    await engine.idle();
    const renders = calls.filter((c) => c.what === 'render');
    expect(renders.flatMap((c) => c.tags)).toHaveLength(8);
    // Each batch of two holds a tag of each station (in id order the first two would be A's).
    for (const r of renders) expect(new Set(r.tags.map((id) => byStation.get(id))).size).toBe(2);
    await engine.close();
  });

  it('writes the first batch at once, then draws each next batch while the previous one is written', async () => {
    const { engine, calls, tagIds } = await setup();
    engine.kick();
    await engine.idle();
    // The first batch is stored (and dispatched) at once; from then on each batch goes to the
    // renderer before the one before it is stored. Four batches of two, all stored.
    const order = ['render', 'store', 'render', 'render', 'store', 'render', 'store', 'store'];
    expect(calls.map((c) => c.what)).toEqual(order);
    expect(
      calls
        .filter((c) => c.what === 'store')
        .flatMap((c) => c.tags)
        .sort(),
    ).toEqual([...tagIds].sort());
    const states = await t()
      .app.services.db.selectFrom('device_tasks')
      .select(['state', 'lease_until'])
      .where('tag_id', 'in', tagIds)
      .execute();
    expect(states.every((s) => s.state === 'queued' && s.lease_until === null)).toBe(true);
    await engine.close();
  });
});
