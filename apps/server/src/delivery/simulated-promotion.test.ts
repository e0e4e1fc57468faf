import type { PriceProof } from '@esl/contract';
import { toLocalTime } from '@esl/contract';
import { priceLabel } from '@esl/labels/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { renderJobs } from '../infra/render';
import * as templates from '../modules/templates/service';
import { testDatabases } from '../test/databases';
import { useApp } from '../test/harness';
import { type Shop, simulatedShops } from '../test/simulated-shop';

// Promotions (issue 29 item 2, docs/PROMOTIONS.md) on the real server, its scheduler and simulated
// stations and tags, one virtual clock and no request after the promotions are added: from T1 the
// covered tag shows the promotional label (promotional price, the regular price struck through,
// the text, on the template's promotion variant) — delivered ahead, switched by the tag at T1 —,
// an overlapping cheaper/dearer promotion resolves by the lowest price, and from the end on the
// regular label is back. A tag whose product no promotion covers never changes.

describe.each(await testDatabases())('promotions reach simulated tags ($name)', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  const { call, settle, until, shop, expectedHash, tagRow, stop } = simulatedShops(t);
  afterEach(stop);
  afterAll(stop);

  /** Both clocks on to `target` in steps of at most `step`, the server's timers run after each; `each` checks. */
  async function goTo(s: Shop, target: number, each: () => void, step = 2000) {
    for (;;) {
      const now = t().clock.now();
      if (now >= target) return;
      const ms = Math.min(step, target - now);
      t().clock.advance(ms);
      await s.sim.clock.advance(ms);
      await s.delivery.schedule.tick();
      await s.delivery.tasks.tick();
      await settle(s.delivery);
      await s.delivery.schedule.idle();
      await settle(s.delivery);
      each();
    }
  }

  it('shows the promotional label from its start and the regular one from its end, without a request', async () => {
    const s = await shop({ tags: 2, sn: 'PRO-A' });
    const [covered, other] = s.tags;
    if (!covered || !other) throw new Error('tags');
    // The promotion variant: the price label with the struck original price and the promotion text,
    // chosen by a category rule on `promotion` = 1.
    const promoDoc = priceLabel({
      model: '05',
      w: 250,
      h: 122,
      colourType: 'bwr',
      original: true,
      extra: [{ type: 'text', id: 'promo', x: 150, y: 4, w: 96, h: 30, font: { size: 20 }, binding: { key: 'promo' } }],
    });
    const tpl = await call<{ id: number }>('/mgr/templ/addtemple', { name: 'promo', model: '05' }, s.token);
    await call('/mgr/templ/alerttempData', { id: tpl.id, doc: promoDoc }, s.token);
    await call(
      '/mgr/templ/setrule',
      { kind: 'category', model: '05', matchKey: 'promotion', matchValue: '1', templateId: tpl.id },
      s.token,
    );
    const promoHash = async (values: Record<string, string>) => {
      const found = (await templates.documentsOf(t().app.services.db, s.tenantId, [tpl.id])).get(tpl.id);
      if (!found) throw new Error('template');
      const [out] = await renderJobs([
        { tenantId: s.tenantId, tagId: 0, doc: found.doc, data: values, model: '05', colour: 'bwr' },
      ]);
      if (!out || !('hash' in out)) throw new Error('render failed');
      return out.hash;
    };
    await call('/mgr/tag/flashallesl', {}, s.token);
    const regular = await expectedHash(s, { name: 'Apple 0', price: '1.00' });
    const otherRegular = await expectedHash(s, { name: 'Apple 1', price: '1.01' });
    const screen = (hw: string) => s.sim.tag(hw).screen()?.hash;
    await until(s, 'the regular labels', () => screen(covered.hw) === regular && screen(other.hw) === otherRegular);

    // T1: the next whole minute at least 20 minutes ahead, on the store's clock (Asia/Shanghai).
    const tz = 'Asia/Shanghai';
    const T1 = Math.ceil((t().clock.now() + 20 * 60_000) / 60_000) * 60_000;
    const local = (ms: number) => toLocalTime(ms, tz);
    // A: 0.80 "Sale" for Apple 0 by barcode, T1 → T1 + 4 min. B: 0.90 "Week" for every product
    // named "apple 0", T1 + 2 min → T1 + 8 min: while both run A is cheaper and wins.
    const a = await call<{ ids: number[] }>(
      '/mgr/promo/add',
      { text: 'Sale', price: '0.80', barcodes: [covered.barcode], startAt: local(T1), endAt: local(T1 + 240_000) },
      s.token,
    );
    const b = await call<{ ids: number[] }>(
      '/mgr/promo/add',
      {
        text: 'Week',
        price: '0.90',
        matchKey: 'name',
        matchValue: 'apple 0',
        startAt: local(T1 + 120_000),
        endAt: local(T1 + 480_000),
      },
      s.token,
    );
    const hashA = await promoHash({ name: 'Apple 0', price: '0.80', originalPrice: '1.00', promo: 'Sale' });
    const hashB = await promoHash({ name: 'Apple 0', price: '0.90', originalPrice: '1.00', promo: 'Week' });
    expect(new Set([regular, hashA, hashB]).size).toBe(3);

    const expected = (now: number) =>
      now < T1 ? regular : now < T1 + 240_000 ? hashA : now < T1 + 480_000 ? hashB : regular;
    // After every step at least a second away from a switch: the covered tag shows what the time
    // says, the other tag its regular label.
    const watch = () => {
      const now = t().clock.now();
      const near = [T1, T1 + 240_000, T1 + 480_000].some((x) => now >= x && now < x + 1000);
      if (!near) expect(screen(covered.hw)).toBe(expected(now));
      expect(screen(other.hw)).toBe(otherRegular);
    };

    // Long before T1 the covered tag holds A's label, without showing it.
    await goTo(s, T1 - 10 * 60_000, watch, 10_000);
    const held = await t()
      .app.services.db.selectFrom('timed_labels')
      .selectAll()
      .where('tag_id', '=', covered.id)
      .executeTakeFirstOrThrow();
    expect(held).toMatchObject({ state: 'held', show_at: T1, hash: hashA });
    expect(s.sim.tag(covered.hw).held()?.screen.hash).toBe(hashA);
    const transfers = s.sim.tag(covered.hw).transfers;

    // Up to a second before T1 the regular label; a second after it A's, with no transfer between.
    await goTo(s, T1 - 10_000, watch, 10_000);
    await goTo(s, T1 - 1000, watch);
    expect(screen(covered.hw)).toBe(regular);
    await goTo(s, T1 + 1000, watch, 1000);
    expect(screen(covered.hw)).toBe(hashA);
    expect(s.sim.tag(covered.hw).transfers).toBe(transfers);
    // The label's price is the promotion's (what the price-accuracy report compares).
    expect(Number((await tagRow(covered.id)).desired_price_cents)).toBe(80);
    // The report compares it with what the till charges now, the promotional price: once the tag's
    // next report says it switched, it agrees, so no wrong price is counted (and no price.wrong
    // callback will follow).
    await goTo(s, T1 + 60_000, watch, 10_000);
    const proof = async () =>
      (await call<PriceProof[]>('/mgr/proof/list', { page: 1, limit: 50 }, s.token)).find((r) => r.id === covered.id);
    expect(await proof()).toMatchObject({ price: '0.80', screenPrice: '0.80', state: 'agree', wrongSince: null });

    // B started at T1 + 2 min but A is cheaper; at A's end B shows, at B's end the regular label.
    await goTo(s, T1 + 239_000, watch, 5000);
    expect(screen(covered.hw)).toBe(hashA);
    await goTo(s, T1 + 241_000, watch, 1000);
    expect(screen(covered.hw)).toBe(hashB);
    await goTo(s, T1 + 320_000, watch, 10_000);
    expect(await proof()).toMatchObject({ price: '0.90', screenPrice: '0.90', state: 'agree', wrongSince: null });
    await goTo(s, T1 + 479_000, watch, 10_000);
    expect(screen(covered.hw)).toBe(hashB);
    await goTo(s, T1 + 481_000, watch, 1000);
    expect(screen(covered.hw)).toBe(regular);
    await goTo(s, T1 + 540_000, watch, 10_000);
    expect(screen(covered.hw)).toBe(regular);
    expect(Number((await tagRow(covered.id)).desired_price_cents)).toBe(100);
    expect(await proof()).toMatchObject({ price: '1.00', screenPrice: '1.00', state: 'agree', wrongSince: null });

    const states = await t().app.services.db.selectFrom('promotions').select(['id', 'state']).orderBy('id').execute();
    expect(states.map((r) => [r.id, r.state])).toEqual([
      [a.ids[0], 'ended'],
      [b.ids[0], 'ended'],
    ]);
    // The product itself was never written: its price is the regular one.
    const product = await t()
      .app.services.db.selectFrom('products')
      .select('price_cents')
      .where('id', '=', covered.productId)
      .executeTakeFirstOrThrow();
    expect(Number(product.price_cents)).toBe(100);
  }, 600_000);
});
