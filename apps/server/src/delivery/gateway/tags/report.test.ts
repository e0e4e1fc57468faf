import type { TagsMsg } from '@esl/contract/protocol';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../infra/db/database';
import { migrateToLatest } from '../../../infra/db/migrate';
import type { Database } from '../../../infra/db/schema';
import type { Notices } from '../../../infra/notice/notices';
import { newKeys } from '../../../modules/tenants/service';
import { testDatabases } from '../../../test/databases';
import type { SysLogLine } from '../../broker/events';
import type { StationLink } from '../../link/station-link';
import { type GatewayConsumer, gatewayCore } from '../core';
import type { StationIdentity } from '../repository';
import { onTagReport } from './report';
import * as repo from './repository';
import { thresholdsFromJson } from './status';

/*
 * On SQLite most entries of a report are stored in place (repository.ts storeHeardInPlace): one
 * UPDATE whose WHERE holds what the handler would otherwise have looked at the row for. These
 * tests hold it to the rules: which rows it stores and which it leaves to the look-up, and that a
 * report stored so leaves every row, counter, log line and notice as the look-up path does.
 */

const T = 1_700_000_000_000;
const V = '0123456789abcdef';
const W = 'fedcba9876543210';

type Db = Kysely<Database>;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Tags in every state a report can meet, their hardware ids by name. */
const ROWS = {
  here: { station: 'S1', signal: -60 },
  keptElsewhere: { station: 'S2', signal: -50 },
  movesBetter: { station: 'S2', signal: -70 },
  movesAtSixDb: { station: 'S2', signal: -66 },
  staysBelowSixDb: { station: 'S2', signal: -65 },
  movesFromOffline: { station: 'S3', signal: -40 },
  fresh: { station: null, signal: null, status: 'unknown', last_seen: null },
  showsWanted: { station: 'S1', signal: -60, desired_hash: `${V}0000` },
  wantsOther: { station: 'S1', signal: -60, desired_hash: `${W}0000`, status: 'online' },
  wantsOtherStale: { station: 'S1', signal: -60, desired_hash: `${W}0000` },
  wasInterrupted: { station: 'S1', signal: -60, status: 'interrupted', last_seen: T - 3_600_000 },
  heardLate: { station: 'S1', signal: -60, last_seen: T - 3_600_000 },
  slowWake: { station: 'S1', signal: -60, wake_s: 600, last_seen: T - 3_600_000 },
  defaultWake: { station: 'S1', signal: -60, wake_s: null, last_seen: T - 3_600_000 },
  button: { station: 'S1', signal: -60 },
  lost: { station: 'S1', signal: -60, last_seen: null },
  noVersion: { station: 'S1', signal: -60 },
  noVersionWanted: { station: 'S1', signal: -60, desired_hash: `${V}0000` },
  foreign: { station: null, signal: null, tenant: 2, store: 'C' },
  strayed: { station: null, signal: null, store: 'B' },
} as const;
type Name = keyof typeof ROWS;
const NAMES = Object.keys(ROWS) as Name[];
const hwOf = (name: Name) => `A0000000${String(NAMES.indexOf(name)).padStart(4, '0')}`;
const UNREGISTERED = 'FFFFFFFF0001';

/** One database seeded the same way every time (same ids): two tenants, stores A, B, C, stations S1–S3 in A (S3 offline). */
async function seeded(url = 'sqlite::memory:'): Promise<{ db: Db; s1: StationIdentity; ids: Record<Name, number> }> {
  const database = openDatabase(url);
  closers.push(() => database.close());
  await migrateToLatest(database);
  const { db } = database;
  const tenant = async (name: string) =>
    (
      await db
        .insertInto('tenants')
        .values({ name, company: '', description: '', account: name, appid: '', ...newKeys(), created_at: T })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const t1 = await tenant('one');
  const t2 = await tenant('two');
  const store = async (tenant_id: number, code: string) =>
    (
      await db
        .insertInto('stores')
        .values({ tenant_id, name: code, code, address: '', contact: '', phone: '', remark: '', created_at: T })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const stores = { A: await store(t1, 'A'), B: await store(t1, 'B'), C: await store(t2, 'C') };
  const stations: Record<string, number> = {};
  for (const [sn, online] of [
    ['S1', 1],
    ['S2', 1],
    ['S3', 0],
  ] as const) {
    const row = await db
      .insertInto('stations')
      .values({
        tenant_id: t1,
        store_id: stores.A,
        sn,
        name: '',
        module: '',
        secret_hash: '',
        cpu: null,
        memory: null,
        disk: null,
        ip: '',
        mac: '',
        wifi_password: '',
        ntp_server: '',
        gateway: '',
        mask: '',
        server_address: '',
        server_port: null,
        upgrade_url: '',
        firmware: '',
        last_heartbeat: null,
        online,
        created_at: T,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    stations[sn] = row.id;
  }
  const ids = {} as Record<Name, number>;
  for (const name of NAMES) {
    const r: { station: string | null; signal: number | null } & Record<string, unknown> = ROWS[name];
    const row = await db
      .insertInto('tags')
      .values({
        tenant_id: r.tenant === 2 ? t2 : t1,
        store_id: stores[(r.store as 'A' | 'B' | 'C' | undefined) ?? 'A'],
        hardware_id: hwOf(name),
        model: '05',
        colour: 'bwr',
        product_id: null,
        station_id: r.station === null ? null : (stations[r.station] ?? null),
        status: (r.status as string | undefined) ?? 'normal',
        signal: r.signal,
        battery: 80,
        temperature: 20,
        hardware_model: '',
        last_seen: 'last_seen' in r ? (r.last_seen as number | null) : T - 30_000,
        wake_s: 'wake_s' in r ? (r.wake_s as number | null) : 40,
        desired_hash: (r.desired_hash as string | undefined) ?? null,
        created_at: T,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[name] = row.id;
  }
  const s1 = await db
    .selectFrom('stations')
    .select(['id', 'tenant_id', 'store_id', 'sn', 'online', 'conn_id', 'clock_skew_ms', 'alarms'])
    .where('id', '=', stations.S1 as number)
    .executeTakeFirstOrThrow();
  return { db, s1, ids };
}

type Entry = TagsMsg['tags'][number];
const entry = (name: Name, at: number, over: Partial<Entry> = {}): Entry => ({
  id: hwOf(name),
  rssi: -61.4,
  battMv: 2900,
  temp: 21.6,
  ver: V,
  fw: '1.2',
  hw: '05',
  wakeS: 40,
  seenAt: at - 1000,
  ...over,
});

/** S1's report at `at` of every tag above and one nobody registered. */
function report(at: number): TagsMsg {
  const special: Partial<Record<Name, Partial<Entry>>> = {
    keptElsewhere: { rssi: -60 },
    movesBetter: { rssi: -60 },
    movesAtSixDb: { rssi: -60 },
    staysBelowSixDb: { rssi: -60 },
    movesFromOffline: { rssi: -80 },
    heardLate: { seenAt: at - 10 * 60_000 },
    slowWake: { seenAt: at - 5 * 60_000, wakeS: undefined },
    defaultWake: { seenAt: at - 5 * 60_000, wakeS: undefined },
    button: { reason: 'button' },
    lost: { seenAt: at - 25 * 3_600_000 },
    noVersion: { ver: null },
    noVersionWanted: { ver: null },
  };
  const tags = NAMES.map((n) => {
    const e = entry(n, at, special[n]);
    if (e.wakeS === undefined) delete e.wakeS;
    return e;
  });
  return { v: 1, seq: 0, at, full: true, tags: [...tags, { ...entry('here', at), id: UNREGISTERED }] };
}

/** The handler's core on `db`, recording what it tells the log, the consoles and the task engine. */
function recorder(db: Db, at: () => number) {
  const logs: SysLogLine[] = [];
  const changed: number[] = [];
  const mismatched: number[] = [];
  const notices = {
    broadcast: (_tenant: number | null, n: { type: string; ids?: number[] }) => {
      if (n.type === 'tag.changed') changed.push(...(n.ids ?? []));
      return 0;
    },
  } as unknown as Notices;
  const engine = {
    kind: 'task',
    onTagsReported: async (ids: readonly number[]) => {
      mismatched.push(...ids);
    },
  } as unknown as GatewayConsumer;
  const core = gatewayCore({
    db,
    link: {} as StationLink,
    notices,
    now: at,
    syslog: (l) => logs.push(l),
    consumers: [engine],
  });
  const seen = () => ({
    logs,
    changed: [...changed].sort((a, b) => a - b),
    mismatched: [...mismatched].sort((a, b) => a - b),
    counters: { ...core.counters, byStation: Object.fromEntries(core.counters.byStation) },
  });
  return { core, seen };
}

const rows = (db: Db) => db.selectFrom('tags').selectAll().orderBy('id').execute();

/** S1's report at T as the in-place store takes it; 'here' reports a learned model it does not have yet. */
function heardAtT(): repo.HeardTag[] {
  const m = report(T);
  return m.tags.map((e) => ({
    hardwareId: e.id,
    rssi: Math.round(e.rssi),
    battery: 88,
    temperature: null,
    hardwareModel: 'x',
    lastSeen: T - (m.at - e.seenAt),
    wakeS: e.wakeS ?? null,
    shownVer: e.ver,
    shownPage: 1,
    fw: null,
    learnedModel: e.id === hwOf('here') ? 'K1A2B3C4' : null,
  }));
}

const placeOf = (s: StationIdentity) => ({ id: s.id, tenantId: s.tenant_id, storeId: s.store_id });

/** What a stored row holds after heardAtT: the entry's values, its route and status kept. */
const storedAtT = { signal: -50, battery: 88, temperature: 20, last_seen: T - 1000, next_wake_at: T - 1000 + 40_000 };

/** A later entry of 'button' with an older sighting is stored (`id`) and never moves last-seen back. */
async function expectLastSeenKept(db: Db, s1: StationIdentity, heard: readonly repo.HeardTag[], id: number) {
  const older = heard.filter((h) => h.hardwareId === hwOf('button')).map((h) => ({ ...h, lastSeen: T - 20_000 }));
  expect(await repo.storeHeardInPlace(db, placeOf(s1), older, T, thresholdsFromJson(null))).toEqual([id]);
  expect((await rows(db)).find((r) => r.id === id)?.last_seen).toBe(T - 1000);
}

describe('a tag report on SQLite', () => {
  it('is stored in place for the tags that stay as they are; the rest is left to the look-up', async () => {
    const { db, s1, ids } = await seeded();
    const th = thresholdsFromJson(null);
    const m = report(T);
    // A learned model the tag does not have yet ('here'): left, so the handler adopts it.
    const heard = heardAtT();
    const before = await rows(db);
    expect(await repo.storeHeardInPlace(db, placeOf(s1), heard, T, th)).toEqual([
      -ids.here,
      ids.keptElsewhere,
      ids.movesBetter,
      ids.movesAtSixDb,
      ids.staysBelowSixDb,
      ids.movesFromOffline,
      ids.fresh,
      ids.showsWanted,
      -ids.wantsOther,
      -ids.wantsOtherStale,
      ids.wasInterrupted,
      -ids.heardLate,
      ids.slowWake,
      -ids.defaultWake,
      ids.button,
      -ids.lost,
      ids.noVersion,
      -ids.noVersionWanted,
      -ids.foreign,
      -ids.strayed,
      0,
    ]);
    // What was left is as it was; what was stored took the entry, its route and status kept.
    const after = await rows(db);
    const stored = new Set([
      ids.keptElsewhere,
      ids.movesBetter,
      ids.movesAtSixDb,
      ids.movesFromOffline,
      ids.fresh,
      ids.wasInterrupted,
      ids.staysBelowSixDb,
      ids.showsWanted,
      ids.slowWake,
      ids.button,
      ids.noVersion,
    ]);
    expect(after.filter((r) => !stored.has(r.id))).toEqual(before.filter((r) => !stored.has(r.id)));
    expect(after.find((r) => r.id === ids.keptElsewhere)).toMatchObject({
      station_id: before.find((r) => r.id === ids.keptElsewhere)?.station_id,
      ...storedAtT,
      status: 'normal',
    });
    const s2 = before.find((r) => r.id === ids.movesBetter)?.station_id;
    for (const name of ['movesBetter', 'movesAtSixDb', 'movesFromOffline', 'fresh', 'wasInterrupted'] as const) {
      const rssi = Math.round(m.tags.find((e) => e.id === hwOf(name))?.rssi ?? 0);
      expect(after.find((r) => r.id === ids[name])).toMatchObject({
        station_id: s1.id,
        signal: rssi,
        status: 'normal',
      });
    }
    expect(after.find((r) => r.id === ids.staysBelowSixDb)).toMatchObject({ station_id: s2, signal: -65 });
    expect(after.find((r) => r.id === ids.slowWake)).toMatchObject({
      wake_s: 600,
      last_seen: T - 5 * 60_000,
      status: 'normal',
    });
    await expectLastSeenKept(db, s1, heard, ids.button);
  });

  it('leaves every row, counter, log line and notice as the look-up path does, report after report', async () => {
    const inPlace = await seeded();
    const lookedUp = await seeded();
    let at = T;
    const a = recorder(inPlace.db, () => at);
    // A Kysely without the SQLite handle behind it takes the look-up path, as PostgreSQL does.
    const b = recorder(lookedUp.db.withoutPlugins(), () => at);
    expect(
      await repo.storeHeardInPlace(b.core.db, { id: 1, tenantId: 1, storeId: 1 }, [], at, thresholdsFromJson(null)),
    ).toBe(null);
    for (let round = 0; round < 3; round++) {
      const m = report(at);
      await onTagReport(a.core, '1.S1', inPlace.s1, m);
      await onTagReport(b.core, '1.S1', lookedUp.s1, m);
      expect(await rows(inPlace.db)).toEqual(await rows(lookedUp.db));
      expect(a.seen()).toEqual(b.seen());
      at += 30_000;
    }
    const seen = a.seen();
    expect(seen.counters.tagEntries).toBe(3 * (NAMES.length - 2));
    expect(seen.counters.unregisteredTags).toBe(3);
    expect(seen.counters.dropped.foreignTag).toBe(3 * 2);
    // The press repeated 30 s later is the same wake; 60 s later a new one.
    expect(seen.logs.filter((l) => l.event === 'tag.button')).toHaveLength(2);
    expect(seen.mismatched).toContain(inPlace.ids.wantsOther);
    const final = await rows(inPlace.db);
    const statusOf = (name: Name) => final.find((r) => r.id === inPlace.ids[name])?.status;
    expect(NAMES.filter((n) => !['foreign', 'strayed'].includes(n)).map((n) => [n, statusOf(n)])).toEqual(
      NAMES.filter((n) => !['foreign', 'strayed'].includes(n)).map((n) => [
        n,
        (
          {
            wantsOther: 'online',
            wantsOtherStale: 'online',
            noVersionWanted: 'online',
            heardLate: 'interrupted',
            defaultWake: 'interrupted',
            lost: 'lost',
          } as Partial<Record<Name, string>>
        )[n] ?? 'normal',
      ]),
    );
  });
});

describe.each((await testDatabases()).filter((d) => d.name === 'postgres'))('a tag report on PostgreSQL', (target) => {
  async function fresh() {
    const { url, drop } = await target.create();
    closers.push(drop);
    return seeded(url);
  }

  it('is stored in place, in one statement, for the tags that stay where and as they are', async () => {
    const { db, s1, ids } = await fresh();
    const th = thresholdsFromJson(null);
    const heard = heardAtT();
    const before = await rows(db);
    // SQLite's first in-place statement's rule; tags that move here, come back to normal or are
    // heard for the first time are left to the look-up (−1; on SQLite a second statement stores
    // them), as are other tenants' and stores' tags and a hardware id nobody registered.
    expect(await repo.storeHeardInPlace(db, placeOf(s1), heard, T, th)).toEqual([
      -1,
      ids.keptElsewhere,
      -1,
      -1,
      ids.staysBelowSixDb,
      -1,
      -1,
      ids.showsWanted,
      -1,
      -1,
      -1,
      -1,
      ids.slowWake,
      -1,
      ids.button,
      -1,
      ids.noVersion,
      -1,
      -1,
      -1,
      -1,
    ]);
    const stored = new Set([
      ids.keptElsewhere,
      ids.staysBelowSixDb,
      ids.showsWanted,
      ids.slowWake,
      ids.button,
      ids.noVersion,
    ]);
    const after = await rows(db);
    expect(after.filter((r) => !stored.has(r.id))).toEqual(before.filter((r) => !stored.has(r.id)));
    expect(after.find((r) => r.id === ids.keptElsewhere)).toMatchObject({
      station_id: before.find((r) => r.id === ids.keptElsewhere)?.station_id,
      ...storedAtT,
      status: 'normal',
    });
    expect(after.find((r) => r.id === ids.slowWake)).toMatchObject({ wake_s: 600, last_seen: T - 5 * 60_000 });
    await expectLastSeenKept(db, s1, heard, ids.button);
  });

  it('leaves every row, counter, log line and notice as the look-up path does, report after report', async () => {
    const inPlace = await fresh();
    const lookedUp = await fresh();
    let at = T;
    const a = recorder(inPlace.db, () => at);
    const b = recorder(lookedUp.db, () => at);
    for (let round = 0; round < 3; round++) {
      const m = report(at);
      await onTagReport(a.core, '1.S1', inPlace.s1, m);
      repo.inPlaceOnPostgres.on = false;
      try {
        await onTagReport(b.core, '1.S1', lookedUp.s1, m);
      } finally {
        repo.inPlaceOnPostgres.on = true;
      }
      expect(await rows(inPlace.db)).toEqual(await rows(lookedUp.db));
      expect(a.seen()).toEqual(b.seen());
      at += 30_000;
    }
    expect(a.seen().counters.tagEntries).toBe(3 * (NAMES.length - 2));
  });
});
