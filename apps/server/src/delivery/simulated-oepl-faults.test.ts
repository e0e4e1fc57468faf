import type { TagRequestData } from '@esl/contract';
import type { OeplAp } from '@esl/simulator';
import { describe, expect, it, vi } from 'vitest';
import { testDatabases } from '../test/databases';
import { OEPL_TYPES, type OeplShopTag, seedOeplShop } from '../test/oepl';
import { type OeplShop, useOeplServer } from '../test/oepl-server';

// The faults of an OpenEPaperLink access point against the real server (issue 24): its bridge in
// the server's process, an emulated AP (apps/simulator/src/oepl), SQLite and PostgreSQL, all on one
// virtual clock. A transfer that times out is retried by the AP and the label ends shown, never
// reported `ok` before the tag took it; a reboot mid-transfer (the AP loses its queue) ends shown,
// one `ok` per change; 300 tags on one AP (past its 255-tag paging wall) are all reported by the
// station and served; a lost WebSocket and an AP reboot are reconnected, a price changed meanwhile
// is shown afterwards, each change uploaded and transferred once; the bridge holds the WebSocket
// with stopsleep=0, the console's LED flash reaches the AP as its 12-byte pattern, and a button
// press is a `tag.button` event in the tenant's system log.

const BWR = OEPL_TYPES.slice(0, 1);

describe.each(await testDatabases())('OpenEPaperLink faults against the server ($name)', (db) => {
  const {
    t,
    clock,
    bridges,
    delivery,
    step,
    until,
    nextMacs,
    rowsOf,
    rowOf,
    tagLog,
    stationOf,
    apFor,
    expectShows,
    priceShown,
  } = useOeplServer(db);

  async function shopOf(count: number) {
    return seedOeplShop(t().app, t().call, count, { types: BWR, firstMac: nextMacs(count) });
  }
  const only = (shop: OeplShop) => {
    const [tag] = shop.tags;
    if (!tag) throw new Error('no tag');
    return tag;
  };
  /** Uploads the AP accepted (200) for the tag since `from` (virtual time). */
  const uploadsOf = (ap: OeplAp, mac: string, from: number) =>
    ap.ap.uploads.filter((u) => u.mac === mac && u.at >= from && u.status === 200);
  const oks = async (shop: OeplShop, tag: OeplShopTag) =>
    (await tagLog(shop, tag.id)).filter((l) => l.kind === 'refresh' && l.result === 'ok');

  it('a transfer that times out is retried by the AP and ends shown; no ok before the tag took it', async () => {
    const shop = await shopOf(1);
    const { ap } = await apFor(shop, `OEPL-XFER-${db.name}`);
    const tag = only(shop);
    const emu = ap.ap.tags.get(tag.mac);
    if (!emu) throw new Error('no emulated tag');
    // The tag's next two transfers time out; the AP keeps the image and offers it at each check-in.
    emu.timeoutsToCome = 2;
    const timedOut: number[] = [];
    const completed: number[] = [];
    const off = ap.ap.onMessage((m) => {
      if (m.errMsg === `${tag.mac} xfer timeout`) timedOut.push(clock.now());
      if (m.logMsg === `${tag.mac} reports xfer complete`) completed.push(clock.now());
    });
    const from = clock.now();
    await shop.must('/mgr/product/alert', { id: tag.productId, price: '6.66' });
    for (const n of [1, 2]) {
      await until(`timeout ${n}`, () => timedOut.length === n);
      // Well after the failed transfer (its next check-in is 40 s on): not shown, nothing reported ok.
      for (let i = 0; i < 20; i++) await step();
      const row = await rowOf(shop, tag.id);
      expect(row.desired_hash).not.toBeNull();
      expect(row.shown_hash, `after timeout ${n}`).not.toBe(row.desired_hash);
      expect(await oks(shop, tag), `after timeout ${n}`).toEqual([]);
      expect(emu.screen).toBeNull();
    }
    await until('shown', async () => {
      const row = await rowOf(shop, tag.id);
      return row.desired_hash !== null && row.shown_hash === row.desired_hash;
    });
    off();
    const { row } = await expectShows(shop, ap, tag);
    expect(completed).toHaveLength(1);
    // One ok, for this label, stamped no earlier than the transfer that completed (server and
    // virtual clocks move together); the AP retried by itself, the server sent the label once.
    const log = await oks(shop, tag);
    expect(log).toEqual([expect.objectContaining({ hash: row.desired_hash, attempts: 1 })]);
    expect(Number(log[0]?.finished_at)).toBeGreaterThanOrEqual(completed[0] as number);
    expect(ap.ap.timeoutcount).toBe(2);
    expect(uploadsOf(ap, tag.mac, from)).toHaveLength(1);
    expect(emu.updatecount).toBe(1);
  }, 180_000);

  it('a reboot mid-transfer (the AP loses its queue) ends shown to the pixel; one ok per change', async () => {
    const shop = await shopOf(1);
    const { ap, added } = await apFor(shop, `OEPL-REBOOT-${db.name}`);
    const tag = only(shop);
    const emu = ap.ap.tags.get(tag.mac);
    if (!emu) throw new Error('no emulated tag');
    const from = clock.now();
    await shop.must('/mgr/product/alert', { id: tag.productId, price: '7.77' });
    // A transfer takes 3.9 s: steps of 0.5 s see it on the air.
    await until('on the air', () => ap.ap.transferringMac === tag.mac);
    const rebootedAt = clock.now();
    ap.ap.reboot();
    expect(emu.pending).toBe(0);
    await until('shown', async () => {
      const row = await rowOf(shop, tag.id);
      return row.desired_hash !== null && row.shown_hash === row.desired_hash;
    });
    const first = await expectShows(shop, ap, tag);
    // The bridge uploaded the lost image again once the AP was back (the server sent it once):
    // two uploads, one transfer, one ok.
    const uploads = uploadsOf(ap, tag.mac, from);
    expect(uploads).toHaveLength(2);
    expect(uploads[1]?.at).toBeGreaterThan(rebootedAt);
    expect(emu.updatecount).toBe(1);
    expect(await oks(shop, tag)).toEqual([expect.objectContaining({ hash: first.row.desired_hash, attempts: 1 })]);
    // The next change goes as usual: one upload, one ok more, each label once.
    const from2 = clock.now();
    const second = await priceShown(shop, tag, '8.88');
    await expectShows(shop, ap, tag);
    expect(uploadsOf(ap, tag.mac, from2)).toHaveLength(1);
    expect(emu.updatecount).toBe(2);
    expect((await oks(shop, tag)).map((l) => l.hash)).toEqual([first.row.desired_hash, second]);
    expect((await stationOf(shop, added.sn)).online).toBe(true);
  }, 180_000);

  it('300 tags on one AP (past the 255 paging wall) are all reported by the station and served', async () => {
    const shop = await shopOf(300);
    const { ap, added } = await apFor(shop, `OEPL-300-${db.name}`);
    // Every tag row routed to the station and heard, without the AP's offset paging.
    const rows = await rowsOf(shop);
    expect(rows).toHaveLength(300);
    for (const r of rows) {
      expect(r.station_id, r.hardware_id).toBe(added.id);
      expect(r.last_seen, r.hardware_id).not.toBeNull();
    }
    expect(ap.server.pagesAsked).toEqual([]);
    await until('the AP status on the console', async () => (await stationOf(shop, added.sn)).ap?.tags === 300);
    // The first tag, the 256th and the last: each shows its new label to the pixel.
    const picked = [0, 255, 299].flatMap((i) => shop.tags.slice(i, i + 1));
    expect(picked).toHaveLength(3);
    const before = new Map((await rowsOf(shop)).map((r) => [r.id, r.desired_hash]));
    for (const tag of picked) await shop.must('/mgr/product/alert', { id: tag.productId, price: '9.19' });
    await until('labels shown', async () => {
      const now = new Map((await rowsOf(shop)).map((r) => [r.id, r]));
      return picked.every((tag) => {
        const row = now.get(tag.id);
        return row?.desired_hash !== before.get(tag.id) && row?.shown_hash === row?.desired_hash;
      });
    });
    for (const tag of picked) await expectShows(shop, ap, tag);
  }, 180_000);

  it('a lost WebSocket and an AP reboot: reconnected, the change made meanwhile shown, nothing sent twice', async () => {
    const shop = await shopOf(1);
    const { ap, added } = await apFor(shop, `OEPL-WS-${db.name}`);
    const tag = only(shop);
    const emu = ap.ap.tags.get(tag.mac);
    const bridge = bridges.at(-1);
    if (!emu || !bridge) throw new Error('no emulated tag or bridge');
    const first = await priceShown(shop, tag, '1.11');

    // The WebSocket is cut; while it is down (the clock still, so no reconnect yet) a price changes:
    // the job reaches the bridge, which holds it: nothing goes to an AP it cannot watch.
    ap.server.dropSockets();
    await vi.waitFor(() => expect(bridge.aps[0]?.health().online).toBe(false));
    const from = clock.now();
    await shop.must('/mgr/product/alert', { id: tag.productId, price: '2.22' });
    await vi.waitFor(
      async () => {
        await step(0);
        expect(bridge.link.queue.size).toBe(1);
      },
      { timeout: 10_000 },
    );
    expect(ap.ap.wsClients).toBe(0);
    expect(uploadsOf(ap, tag.mac, from)).toEqual([]);
    await until('shown after the reconnect', async () => {
      const row = await rowOf(shop, tag.id);
      return row.desired_hash !== first && row.shown_hash === row.desired_hash;
    });
    const second = (await expectShows(shop, ap, tag)).row.desired_hash;
    expect(ap.ap.wsClients).toBe(1);
    expect(uploadsOf(ap, tag.mac, from)).toHaveLength(1);
    expect(emu.updatecount).toBe(2);

    // Lost again while the next label waits at the AP for the tag: the AP still holds it, so the
    // bridge, back, waits for the transfer instead of uploading it again.
    const fromQueued = clock.now();
    await shop.must('/mgr/product/alert', { id: tag.productId, price: '2.50' });
    await until('queued at the AP', () => uploadsOf(ap, tag.mac, fromQueued).length === 1 && emu.pending === 1);
    ap.server.dropSockets();
    await until('shown after the second reconnect', async () => {
      const row = await rowOf(shop, tag.id);
      return row.desired_hash !== second && row.shown_hash === row.desired_hash;
    });
    const queued = (await expectShows(shop, ap, tag)).row.desired_hash;
    expect(uploadsOf(ap, tag.mac, fromQueued)).toHaveLength(1);
    expect(emu.updatecount).toBe(3);

    // The AP reboots (its queue gone, 409 until it runs again) and a price changes meanwhile.
    const from2 = clock.now();
    ap.ap.reboot();
    await shop.must('/mgr/product/alert', { id: tag.productId, price: '3.33' });
    await until('shown after the reboot', async () => {
      const row = await rowOf(shop, tag.id);
      return row.desired_hash !== queued && row.shown_hash === row.desired_hash;
    });
    const third = (await expectShows(shop, ap, tag)).row.desired_hash;
    expect(uploadsOf(ap, tag.mac, from2)).toHaveLength(1);
    expect(emu.updatecount).toBe(4);
    // Settled: nothing more arrives later, and each change was reported ok once.
    for (let i = 0; i < 120; i++) await step();
    expect(uploadsOf(ap, tag.mac, from)).toHaveLength(3);
    expect(emu.updatecount).toBe(4);
    expect((await oks(shop, tag)).map((l) => l.hash)).toEqual([first, second, queued, third]);
    expect(ap.ap.wsClients).toBe(1);
    const station = await stationOf(shop, added.sn);
    expect(station.online).toBe(true);
    expect(station.ap?.runstate).toBe(2);
  }, 180_000);

  it('holds the WebSocket with stopsleep=0; the console’s LED flash is the AP’s pattern; a button press is an event', async () => {
    const shop = await shopOf(1);
    // The AP's own default: tags kept awake while a WebSocket client is connected.
    const { ap, added } = await apFor(shop, `OEPL-IO-${db.name}`, { stopsleep: 1 });
    const tag = only(shop);
    const emu = ap.ap.tags.get(tag.mac);
    if (!emu) throw new Error('no emulated tag');
    expect(ap.ap.wsClients).toBe(1);
    expect(ap.ap.config.stopsleep).toBe(0);
    // So the tag sleeps to maxsleep (1 minute here), not the 40 s a held socket would keep it to.
    const checkIns = emu.checkIns;
    await until('a check-in', () => emu.checkIns > checkIns);
    expect(emu.nextcheckin - emu.lastseen).toBe(60);

    // LED flash from the console: green, 0.2 s on, 0.3 s off, 3 flashes, twice.
    const led = { colour: 'green', onMs: 200, offMs: 300, count: 3, repeat: 2 };
    const req = await shop.must<TagRequestData>('/mgr/tag/ledesl', { ids: [tag.id], led });
    expect(req.tasks).toBe(1);
    await until('flashed', async () => (await tagLog(shop, tag.id)).some((l) => l.kind === 'led'));
    // Mode 1 with 0.5 s, green in RGB332, 3 flashes at 0.2 s then 0.3 s dark; phases 2 and 3 dark; 2 repeats.
    expect(emu.flashes).toEqual(['151C32030000000000000200']);
    expect((await tagLog(shop, tag.id)).filter((l) => l.kind === 'led')).toEqual([
      expect.objectContaining({ result: 'ok', code: '' }),
    ]);

    // A button press: the tag wakes, the server writes it to the tenant's system log.
    const buttonRows = () =>
      t()
        .app.services.db.selectFrom('sys_logs')
        .select(['level', 'message'])
        .where('tenant_id', '=', shop.tenantId)
        .where('event', '=', 'tag.button')
        .orderBy('id')
        .execute();
    const event = { level: 'info', message: `tag ${tag.mac} woke by its button (station ${added.sn})` };
    const seenBefore = (await rowOf(shop, tag.id)).last_seen;
    ap.ap.pressButton(tag.mac);
    await until('button event', async () => {
      await delivery().syslog.flush();
      return (await buttonRows()).length > 0;
    });
    expect(await buttonRows()).toEqual([event]);
    expect(Number((await rowOf(shop, tag.id)).last_seen)).toBeGreaterThan(Number(seenBefore));
    // Pressed again later with a label waiting at the AP: the tag takes the label at once, and the
    // press is one event more, neither lost (the transfer's record comes before the bridge's next
    // report) nor repeated.
    for (let i = 0; i < 150; i++) await step();
    const from = clock.now();
    await shop.must('/mgr/product/alert', { id: tag.productId, price: '4.56' });
    await until('queued at the AP', () => uploadsOf(ap, tag.mac, from).length === 1 && emu.pending === 1);
    const pressedAt = clock.now();
    ap.ap.pressButton(tag.mac);
    await until('shown', async () => {
      const row = await rowOf(shop, tag.id);
      return row.desired_hash !== null && row.shown_hash === row.desired_hash;
    });
    expect(clock.now() - pressedAt).toBeLessThan(20_000);
    await expectShows(shop, ap, tag);
    for (let i = 0; i < 150; i++) await step();
    await delivery().syslog.flush();
    expect(await buttonRows()).toEqual([event, event]);
  }, 180_000);
});
