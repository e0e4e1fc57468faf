import type { AddStationData, Station } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases';
import { differingPixels, emuTagsOf, OEPL_MORE_TYPES, OEPL_TYPES, screenOf, seedOeplShop } from '../test/oepl';
import { useOeplServer } from '../test/oepl-server';

// An OpenEPaperLink access point added in the console (issue 24): the real server runs its bridge
// in its own process (delivery/bridges/), the bridge drives an emulated AP (apps/simulator/src/oepl)
// and logs in upward with a secret the server issued it. Tags appear; a price change reaches each
// emulated tag, after the AP's own palette mapping, with 0 pixels different from the server's
// render, a rotated type included; a new address restarts the bridge; deleting the station stops it.
// On the same server: black/white, black/white/yellow and four-colour types to the pixel; ten price
// changes in a second reach the AP as at most two uploads and end on the last price; an upload the AP
// queued (200) but never delivered is not reported shown until the tag takes it. The AP's faults
// (timeouts, reboots, a lost WebSocket, 300 tags, LED and button) are simulated-oepl-faults.test.ts;
// both share their set-up (server, bridges, clocks, helpers): test/oepl-server.ts.

describe.each(await testDatabases())('an OpenEPaperLink station run by the server ($name)', (db) => {
  const { t, clock, lines, delivery, step, until, nextMacs, rowsOf, rowOf, okLog, startAp, apFor, expectShows } =
    useOeplServer(db);

  it('added through the API: tags appear, a price change shows to the pixel, edits restart and deletion stops it', async () => {
    const app = t().app;
    const shop = await seedOeplShop(app, t().call, 2);
    const ap = await startAp({ tags: emuTagsOf(shop.tags), maxsleep: 1, alias: 'E2E AP' });
    const added = await shop.must<AddStationData>('/mgr/ap/add', {
      sn: `OEPL-${db.name}`,
      name: 'Shelf AP',
      kind: 'oepl',
      apUrl: ap.url,
    });
    expect(added.secret).toBe('');
    await delivery().bridges.reconcile();
    expect([...delivery().bridges.running()]).toEqual([[added.id, ap.url]]);
    // The bridge logged in with a secret the server issued it (its hash stored, the secret nowhere).
    await until('station online', async () => {
      const [s] = await shop.must<Station[]>('/mgr/ap/runtimelist', { text: added.sn });
      return s?.online === true;
    });
    const [station] = await shop.must<Station[]>('/mgr/ap/runtimelist', { text: added.sn });
    expect(station).toMatchObject({ kind: 'oepl', apUrl: ap.url, online: true });

    // Tags appear: each reported by the AP's station, with its signal.
    const rows = () => rowsOf(shop);
    await until('tags reported', async () => (await rows()).every((r) => r.station_id === added.id));

    // A price change reaches every emulated tag: the AP's palette-mapped picture is our render.
    for (const tag of shop.tags) await shop.must('/mgr/product/alert', { id: tag.productId, price: '9.99' });
    await until('labels shown', async () => {
      const now = await rows();
      return shop.tags.every((tag) => {
        const row = now.find((r) => r.id === tag.id);
        return row?.desired_hash && row.desired_hash === row.shown_hash && screenOf(ap, tag.mac) !== null;
      });
    });
    for (const tag of shop.tags) {
      const row = (await rows()).find((r) => r.id === tag.id);
      const screen = screenOf(ap, tag.mac);
      if (!row?.desired_hash || !screen) throw new Error(`tag ${tag.mac}`);
      expect(await differingPixels(app, shop.tenantId, row.desired_hash, tag.hwType, screen), tag.mac).toBe(0);
    }
    // The comparison sees a wrong picture: tag 0's screen against tag 1's label (another product).
    const [first, second] = shop.tags;
    const other = (await rows()).find((r) => r.id === second?.id)?.desired_hash;
    const firstScreen = first ? screenOf(ap, first.mac) : null;
    if (!first || !other || !firstScreen) throw new Error('tags');
    expect(await differingPixels(app, shop.tenantId, other, first.hwType, firstScreen)).toBeGreaterThan(0);

    // The tag log says each tag showed its current label (its first label, then the new price).
    const log = await app.services.db
      .selectFrom('tag_log')
      .select(['tag_id', 'result', 'hash'])
      .where('store_id', '=', shop.storeId)
      .execute();
    for (const row of await rows()) {
      expect(log.filter((l) => l.tag_id === row.id && l.result === 'ok' && l.hash === row.desired_hash)).toHaveLength(
        1,
      );
    }
    expect(log.filter((l) => l.result !== 'ok')).toEqual([]);

    // A new address restarts the bridge there; deleting the station stops it.
    const ap2 = await startAp({ tags: [], maxsleep: 1 });
    await shop.must('/mgr/ap/edit', { id: added.id, apUrl: ap2.url });
    await delivery().bridges.reconcile();
    expect([...delivery().bridges.running()]).toEqual([[added.id, ap2.url]]);
    expect(lines.filter((l) => l.startsWith('start '))).toEqual([
      `start ${shop.tenantId}.${added.sn} ${ap.url}`,
      `start ${shop.tenantId}.${added.sn} ${ap2.url}`,
    ]);
    await shop.must('/mgr/ap/delete', { ids: [added.id] });
    await delivery().bridges.reconcile();
    expect(delivery().bridges.running().size).toBe(0);
    await until('old AP released', () => ap.ap.wsClients === 0 && ap2.ap.wsClients === 0, 20_000);
    // Never logged: no line of the bridges names a secret-looking value.
    expect(lines.join('\n')).not.toMatch(/[0-9a-f]{48}/);
  });

  it('black/white, black/white/yellow and four-colour types show the label to the pixel', async () => {
    const shop = await seedOeplShop(t().app, t().call, 1, { types: OEPL_MORE_TYPES, firstMac: nextMacs() });
    const { ap } = await apFor(shop, `OEPL-COLOURS-${db.name}`);
    // Each tag is the catalogue's model of its size and colours (the bridge matched it, learned nothing).
    for (const tag of shop.tags) expect((await rowOf(shop, tag.id)).model, tag.mac).toBe(tag.model);
    const before = new Map((await rowsOf(shop)).map((r) => [r.id, r.desired_hash]));
    for (const tag of shop.tags) await shop.must('/mgr/product/alert', { id: tag.productId, price: '7.45' });
    await until('new labels shown', async () => {
      const now = await rowsOf(shop);
      return shop.tags.every((tag) => {
        const row = now.find((r) => r.id === tag.id);
        return row?.desired_hash !== before.get(tag.id) && row?.desired_hash === row?.shown_hash;
      });
    });
    for (const tag of shop.tags) {
      const { screen } = await expectShows(shop, ap, tag);
      // Every ink of the type is on the screen (the yellow band, the red price): a lost ink fails.
      const type = OEPL_MORE_TYPES.find((x) => x.hwType === tag.hwType);
      const inks = new Set(screen.indices);
      expect(inks.size, tag.mac).toBe({ bw: 2, bwy: 3, bwry: 4 }[type?.colourType as 'bw' | 'bwy' | 'bwry']);
    }
  }, 180_000);

  it('ten price changes within a second: at most two uploads for the tag, which ends on the last price', async () => {
    const shop = await seedOeplShop(t().app, t().call, 1, { types: OEPL_TYPES.slice(0, 1), firstMac: nextMacs() });
    const { ap } = await apFor(shop, `OEPL-BURST-${db.name}`);
    const [tag] = shop.tags;
    if (!tag) throw new Error('no tag');
    const start = (await rowOf(shop, tag.id)).desired_hash;
    const from = clock.now();
    for (let i = 1; i <= 10; i++) {
      await shop.must('/mgr/product/alert', { id: tag.productId, price: `3.${String(i).padStart(2, '0')}` });
      await step(100);
    }
    await until('the last price shown', async () => {
      const row = await rowOf(shop, tag.id);
      return (
        row.desired_hash !== start && row.shown_hash === row.desired_hash && ap.ap.tags.get(tag.mac)?.pending === 0
      );
    });
    // Settled: nothing more arrives later.
    for (let i = 0; i < 120; i++) await step();
    const uploads = ap.ap.uploads.filter((u) => u.mac === tag.mac && u.at >= from);
    expect(uploads.length).toBeGreaterThanOrEqual(1);
    expect(uploads.length).toBeLessThanOrEqual(2);
    const { row } = await expectShows(shop, ap, tag);
    // The label of the last price (the product's now), not the one before the burst.
    expect(row.desired_hash).not.toBe(start);
    expect(
      await t()
        .app.services.db.selectFrom('products')
        .select('price_cents')
        .where('id', '=', tag.productId)
        .executeTakeFirst(),
    ).toMatchObject({ price_cents: 310 });
  }, 180_000);

  it('an upload the AP queued but never delivered is not reported shown; it is once the tag takes it', async () => {
    const shop = await seedOeplShop(t().app, t().call, 1, { types: OEPL_TYPES.slice(0, 1), firstMac: nextMacs() });
    const { ap } = await apFor(shop, `OEPL-UNDELIVERED-${db.name}`);
    const [tag] = shop.tags;
    const emu = tag ? ap.ap.tags.get(tag.mac) : undefined;
    if (!tag || !emu) throw new Error('no tag');
    await shop.must('/mgr/product/alert', { id: tag.productId, price: '4.44' });
    await until('the first label shown', async () => {
      const row = await rowOf(shop, tag.id);
      return row.desired_hash !== null && row.shown_hash === row.desired_hash;
    });
    const before = await expectShows(shop, ap, tag);
    // The tag goes silent (out of range): the AP still answers 200 and queues the image.
    emu.alive = false;
    const from = clock.now();
    await shop.must('/mgr/product/alert', { id: tag.productId, price: '5.55' });
    await until('the AP queued it', () =>
      ap.ap.uploads.some((u) => u.mac === tag.mac && u.at >= from && u.status === 200),
    );
    // Past the tag's expected check-in and the bridge's grace (its `timeout`) and the server's first retry.
    for (let i = 0; i < 400; i++) await step();
    const row = await rowOf(shop, tag.id);
    expect(row.desired_hash).not.toBe(before.row.desired_hash);
    expect(row.shown_hash).toBe(before.row.desired_hash);
    expect((await okLog(shop, tag.id)).filter((l) => l.hash === row.desired_hash)).toEqual([]);
    expect(emu.screen?.md5).toBe(before.screen.md5);
    expect(emu.pending).toBeGreaterThan(0);
    // The tag is back: it takes the image and only then is it reported shown.
    emu.alive = true;
    await until('shown at last', async () => {
      const now = await rowOf(shop, tag.id);
      return now.shown_hash === now.desired_hash;
    });
    await expectShows(shop, ap, tag);
    expect((await okLog(shop, tag.id)).filter((l) => l.hash === row.desired_hash)).toHaveLength(1);
  }, 180_000);
});
