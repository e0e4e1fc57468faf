import { type Bridge, startBridge } from '@esl/bridge';
import type { AddStationData, Station } from '@esl/contract';
import { type EmuApOptions, type OeplAp, startOeplAp, VirtualClock } from '@esl/simulator';
import { afterAll, expect } from 'vitest';
import type { Delivery } from '../delivery/wiring';
import type { TestDatabase } from './databases';
import { TestClock, useApp } from './harness';
import { differingPixels, emuTagsOf, type OeplShopTag, screenOf, type seedOeplShop } from './oepl';

/*
 * The real server running OpenEPaperLink bridges in its own process, each driving an emulated AP,
 * for the tests of delivery/simulated-oepl*.test.ts: one virtual clock for the bridges and the
 * emulated APs, moved in step with the server's (`step`, `until`); a shop's AP added as a station
 * of kind `oepl` through the API (`apFor`); what the database says of the shop's tags (`rowOf`,
 * `tagLog`) and whether a tag shows its label to the pixel (`expectShows`).
 */

export type OeplShop = Awaited<ReturnType<typeof seedOeplShop>>;

const START = new TestClock().time;

/** Call inside a `describe`: the app starts before its tests and stops (with its APs) after them. */
export function useOeplServer(db: TestDatabase) {
  const clock = new VirtualClock({ speed: 0, start: START });
  /** The bridges' log lines, and `start <tid>.<sn> <ap urls>` for each bridge the server started. */
  const lines: string[] = [];
  /** Every bridge the server started, in order. */
  const bridges: Bridge[] = [];
  const t = useApp(db, {
    mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 },
    bridges: {
      reconcileMs: 0,
      start: async (o) => {
        lines.push(`start ${o.station.tenantId}.${o.station.sn} ${o.aps.join(',')}`);
        const bridge = await startBridge({ ...o, clock, oepl: { paceMs: 0 }, log: (l) => lines.push(l) });
        bridges.push(bridge);
        return bridge;
      },
    },
  });
  const aps: OeplAp[] = [];
  afterAll(async () => {
    for (const ap of aps) await ap.stop();
    clock.stop();
  });

  const delivery = (): Delivery => {
    const d = t().app.delivery;
    if (!d) throw new Error('no broker');
    return d;
  };
  const dbOf = () => t().app.services.db;

  /** Moves the server's clock and the virtual one by `ms`, then lets every message and task settle. */
  async function step(ms = 500) {
    t().clock.advance(ms);
    await clock.advance(ms);
    for (let i = 0; i < 3; i++) {
      await delivery().gateway.idle();
      await delivery().tasks.idle();
      await new Promise((r) => setTimeout(r, 5));
    }
    await delivery().tasks.tick();
  }
  /** Steps (`every` ms of virtual time each) until `pred` holds; fails after `maxMs` of virtual time. */
  async function until(what: string, pred: () => boolean | Promise<boolean>, maxMs = 300_000, every = 500) {
    for (let done = 0; done <= maxMs; done += every) {
      if (await pred()) return;
      await step(every);
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  // Each shop below its own MAC range (hardware ids are unique), a retried test a new one.
  let macs = 0;
  /** The first MAC of a new shop: 0x100 apart, or `room` tags past the last range. */
  const nextMacs = (room = 0x100) => {
    const first = macs + 0x100;
    macs += Math.max(0x100, Math.ceil(room / 0x100) * 0x100);
    return first;
  };

  const rowsOf = (shop: OeplShop) =>
    dbOf().selectFrom('tags').selectAll().where('store_id', '=', shop.storeId).execute();
  const rowOf = (shop: OeplShop, id: number) =>
    dbOf()
      .selectFrom('tags')
      .selectAll()
      .where('store_id', '=', shop.storeId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  /** The tag log of one tag, oldest first. */
  const tagLog = (shop: OeplShop, tagId: number) =>
    dbOf()
      .selectFrom('tag_log')
      .select(['kind', 'result', 'code', 'hash', 'attempts', 'finished_at'])
      .where('store_id', '=', shop.storeId)
      .where('tag_id', '=', tagId)
      .orderBy('id')
      .execute();
  /** The tag's `ok` and `skipped` rows: what was reported shown. */
  const okLog = async (shop: OeplShop, tagId: number) =>
    (await tagLog(shop, tagId)).filter((l) => l.result === 'ok' || l.result === 'skipped');

  /** The station as the console lists it. */
  async function stationOf(shop: OeplShop, sn: string) {
    const [s] = await shop.must<Station[]>('/mgr/ap/runtimelist', { text: sn });
    if (!s) throw new Error(`no station ${sn}`);
    return s;
  }

  /** An emulated AP on the shared clock, stopped after the tests. */
  async function startAp(options: Partial<EmuApOptions> = {}) {
    const ap = await startOeplAp({ ...options, clock });
    aps.push(ap);
    return ap;
  }

  /**
   * A new emulated AP with the shop's tags, added through the API as the shop's station; resolves
   * once every tag is reported by it.
   */
  async function apFor(shop: OeplShop, name: string, options: Partial<EmuApOptions> = {}) {
    const ap = await startAp({ tags: emuTagsOf(shop.tags), maxsleep: 1, ...options });
    // Serials are unique: the shop's first MAC tells a retried test's station apart.
    const sn = `${name}-${shop.tags[0]?.mac.slice(-4)}`;
    const added = await shop.must<AddStationData>('/mgr/ap/add', { sn, name: sn, kind: 'oepl', apUrl: ap.url });
    await delivery().bridges.reconcile();
    await until('tags reported', async () => (await rowsOf(shop)).every((r) => r.station_id === added.id));
    return { ap, added };
  }

  /** The tag shows the label it should, confirmed (`shown_hash`) and to the pixel on the emulated screen. */
  async function expectShows(shop: OeplShop, ap: OeplAp, tag: OeplShopTag) {
    const row = await rowOf(shop, tag.id);
    const screen = screenOf(ap, tag.mac);
    if (!row.desired_hash || !screen) throw new Error(`tag ${tag.mac} shows nothing`);
    expect(row.shown_hash, tag.mac).toBe(row.desired_hash);
    expect(await differingPixels(t().app, shop.tenantId, row.desired_hash, tag.hwType, screen), tag.mac).toBe(0);
    return { row, screen };
  }

  /** Changes the tag's product price and waits until the tag is confirmed showing a new label. */
  async function priceShown(shop: OeplShop, tag: OeplShopTag, price: string, maxMs?: number) {
    const before = (await rowOf(shop, tag.id)).desired_hash;
    await shop.must('/mgr/product/alert', { id: tag.productId, price });
    await until(
      `${tag.mac} shows ${price}`,
      async () => {
        const row = await rowOf(shop, tag.id);
        return row.desired_hash !== before && row.shown_hash === row.desired_hash;
      },
      maxMs,
    );
    const { desired_hash: shown } = await rowOf(shop, tag.id);
    if (!shown) throw new Error(`${tag.mac}: nothing to show`);
    return shown;
  }

  return {
    t,
    clock,
    lines,
    bridges,
    delivery,
    step,
    until,
    nextMacs,
    rowsOf,
    rowOf,
    tagLog,
    okLog,
    stationOf,
    startAp,
    apFor,
    expectShows,
    priceShown,
  };
}
