import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PriceProof, ProofSummary } from '@esl/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases';
import { useApp } from '../test/harness';
import { simulatedShops } from '../test/simulated-shop';

// Proof of price (issue 29 item 6, docs/PROOF.md) on the real server and simulated stations and
// tags: the price a tag's screen was rendered from travels with its image to what the tag
// confirms. A tag held on an old price (its station offline) is listed as disagreeing until it
// confirms the new one, then agrees; the tenant's `price.wrong` callback goes out once, after the
// tenant's minutes and not before.

describe.each(await testDatabases())('proof of price on simulated tags ($name)', (db) => {
  const t = useApp(db, {
    mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 },
    callbacks: { allowLoopback: true, allowPrivate: false, timeoutMs: 1000, tickMs: 0 },
  });
  const { call, until, advance, shop, expectedHash, stop } = simulatedShops(t);
  afterEach(stop);
  afterAll(stop);

  const got: Array<{ type: string; data: Record<string, unknown> }> = [];
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('lists a tag held on an old price as disagreeing until it confirms the new one; the callback fires once after the set time', async () => {
    const s = await shop({ tags: 2, sn: 'PRF-A' });
    const [held, other] = s.tags;
    if (!held || !other) throw new Error('tags');
    expect(
      await call<{ priceWrongMinutes: number }>('/user/setcallback', { url, priceWrongMinutes: 5 }, s.token),
    ).toMatchObject({ priceWrongMinutes: 5 });
    const report = (wrongOnly = false) => call<PriceProof[]>('/mgr/proof/list', { wrongOnly, limit: 100 }, s.token);
    const rowOf = async (id: number) => (await report()).find((r) => r.id === id);
    const events = () =>
      t().app.services.db.selectFrom('callback_outbox').select(['payload']).where('type', '=', 'price.wrong').execute();

    // Before any label: bound tags whose screen nobody knows are listed as unknown.
    expect((await report()).map((r) => r.state)).toEqual(['unknown', 'unknown']);

    // Both tags get and confirm their labels: each agrees with its product's price.
    await call('/mgr/tag/flashallesl', {}, s.token);
    const first = await expectedHash(s, { name: 'Apple 0', price: '1.00' });
    await until(s, 'the first labels confirmed', async () => (await report()).every((r) => r.state === 'agree'));
    expect(s.sim.tag(held.hw).screen()?.hash).toBe(first);
    expect(await rowOf(held.id)).toMatchObject({
      hardwareId: held.hw,
      price: '1.00',
      screenPrice: '1.00',
      state: 'agree',
      otherProduct: false,
      wrongSince: null,
      pending: false,
    });
    expect((await rowOf(held.id))?.confirmedAt).toBeGreaterThan(0);
    expect(await report(true)).toEqual([]);

    // The station goes offline; the product's price changes. The tag keeps showing 1.00.
    await s.sim.station('PRF-A').disconnect({ abrupt: true });
    await advance(s, 4000);
    const changedAt = t().clock.now();
    await call('/mgr/product/alert', { id: held.productId, price: '2.00' }, s.token);
    await advance(s, 4000, 2000, true);
    const wrong = await rowOf(held.id);
    expect(wrong).toMatchObject({ price: '2.00', screenPrice: '1.00', state: 'disagree', pending: true });
    expect(wrong?.wrongSince).toBeGreaterThanOrEqual(changedAt);
    expect(wrong?.wrongSince).toBeLessThanOrEqual(changedAt + 2000);
    expect((await report(true)).map((r) => r.id)).toEqual([held.id]);
    expect(await call<ProofSummary>('/mgr/proof/summary', {}, s.token)).toEqual({
      total: 2,
      agree: 1,
      disagree: 1,
      unknown: 0,
      alertMinutes: 5,
    });

    // Wrong for less than the tenant's 5 minutes: no callback; past them: exactly one.
    await advance(s, 4 * 60_000 + 30_000 - 8000, 10_000, true);
    expect(s.sim.tag(held.hw).screen()?.hash).toBe(first);
    expect((await rowOf(held.id))?.state).toBe('disagree');
    expect(await events()).toHaveLength(0);
    await advance(s, 60_000, 10_000, true);
    expect(await events()).toHaveLength(1);
    await advance(s, 120_000, 10_000, true);
    expect(await events()).toHaveLength(1);
    while ((await t().app.callbacks.tick()) > 0);
    const sent = got.filter((e) => e.type === 'price.wrong');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.data).toMatchObject({
      storeId: s.storeId,
      tagId: held.id,
      hardwareId: held.hw,
      productId: held.productId,
      price: '2.00',
      screenPrice: '1.00',
      wrongSince: wrong?.wrongSince,
      minutes: 5,
    });

    // Back online: the tag gets and confirms the new price, and agrees again.
    await s.sim.station('PRF-A').reconnect();
    const second = await expectedHash(s, { name: 'Apple 0', price: '2.00' });
    await until(s, 'the new price confirmed', async () => (await rowOf(held.id))?.state === 'agree');
    expect(s.sim.tag(held.hw).screen()?.hash).toBe(second);
    expect(await rowOf(held.id)).toMatchObject({ price: '2.00', screenPrice: '2.00', wrongSince: null });
    expect(await report(true)).toEqual([]);
    await advance(s, 10 * 60_000, 10_000, true);
    expect(await events()).toHaveLength(1);
    expect((await rowOf(other.id))?.state).toBe('agree');
  }, 300_000);
});
