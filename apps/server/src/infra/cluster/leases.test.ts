import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { claimRenderSpread } from '../../delivery/tasks/repository';
import { upsertImageSlots } from '../../outbox/slots/repository';
import { buildShop, insertBoundTags } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { testConfig } from '../config';
import { type Db, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { type MemberInfo, refusalReason, workersRefusal } from './membership';
import { claimLease, liveLeases, releaseLease, takeDeadProcesses } from './repository';

// Leases (cluster/repository.ts) on both databases, render claims shared by two processes on
// PostgreSQL (FOR UPDATE SKIP LOCKED, delivery/tasks/repository.ts claimRenderSpread), and the rules
// that refuse a process at start (cluster/membership.ts).

describe.each(await testDatabases())('leases ($name)', (target) => {
  let database: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const created = await target.create();
    drop = created.drop;
    database = openDatabase(created.url);
    await migrateToLatest(database);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('one holder at a time; renewed by its holder; free once it runs out or is given up', async () => {
    const db = database.db;
    expect(await claimLease(db, 'sweeper', 'a', 1000, 5000)).toBe(true);
    expect(await claimLease(db, 'sweeper', 'b', 2000, 5000)).toBe(false);
    // The holder renews: its lease now runs to 8000.
    expect(await claimLease(db, 'sweeper', 'a', 3000, 5000)).toBe(true);
    expect(await claimLease(db, 'sweeper', 'b', 7000, 5000)).toBe(false);
    // Ran out: the other takes it, and the former holder cannot renew it any more.
    expect(await claimLease(db, 'sweeper', 'b', 8001, 5000)).toBe(true);
    expect(await claimLease(db, 'sweeper', 'a', 8002, 5000)).toBe(false);
    // Given up by someone who does not hold it: nothing happens; by its holder: free at once.
    await releaseLease(db, 'sweeper', 'a');
    expect(await claimLease(db, 'sweeper', 'a', 8003, 5000)).toBe(false);
    await releaseLease(db, 'sweeper', 'b');
    expect(await claimLease(db, 'sweeper', 'a', 8004, 5000)).toBe(true);
  });

  it('concurrent claims of one lease: exactly one wins', async () => {
    const wins = await Promise.all(
      Array.from({ length: 8 }, (_, i) => claimLease(database.db, 'station:42', `p${i}`, 10_000, 3000)),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it('a process lease that ran out is taken as a death once; a live one is left', async () => {
    const db = database.db;
    await claimLease(db, 'process:dead', 'process:dead', 1000, 15_000, '{}');
    await claimLease(db, 'process:live', 'process:live', 20_000, 15_000, '{}');
    expect(await takeDeadProcesses(db, 'process:', 20_000)).toEqual(['process:dead']);
    expect(await takeDeadProcesses(db, 'process:', 20_000)).toEqual([]);
    expect((await liveLeases(db, 'process:', 20_000)).map((l) => l.name)).toEqual(['process:live']);
  });
});

const postgres = (await testDatabases()).find((d) => d.name === 'postgres');

describe.runIf(postgres)('render claims of two processes (postgres)', () => {
  let url = '';
  let drop: () => Promise<void>;
  let one: Db;
  let two: Db;
  const SLOTS = 600;
  beforeAll(async () => {
    const created = await postgres?.create();
    if (!created) return;
    url = created.url;
    drop = created.drop;
    one = openDatabase(url);
    await migrateToLatest(one);
    const app = await buildApp(testConfig({ databaseUrl: url }), openDatabase(url));
    await app.ready();
    const world = await buildShop(app);
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    await insertBoundTags(one.db, at, SLOTS, { hwPrefix: 'E0', priceCents: (i) => 100 + i, now: 1 });
    await upsertImageSlots(one.db, { ...at, tagIds: null, prio: 2, force: true, requestId: null, now: 1 });
    await app.close();
    two = openDatabase(url);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await drop?.();
  });

  it('claim disjoint slots at the same time, and every slot is claimed once', async () => {
    const claimed: Array<{ who: string; ids: number[] }> = [];
    // Every worker makes its first claim before any makes a second: on a busy machine one process
    // could otherwise take every slot before the other's first query ran, and the test would say
    // nothing about the two at once. Were a claim to wait for another's locks, this would never end.
    const WORKERS = 4;
    let firsts = 0;
    let started: () => void = () => {};
    const allStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const work = (db: Db, who: string) => async () => {
      for (let n = 0; ; n++) {
        const got = await claimRenderSpread(db.db, who, 10_000, 60_000, 50);
        if (n === 0 && ++firsts === WORKERS) started();
        if (got.length === 0) return;
        expect(got.length).toBeLessThanOrEqual(50);
        claimed.push({ who, ids: got.map((s) => s.id) });
        if (n === 0) await allStarted;
      }
    };
    await Promise.all([work(one, 'a')(), work(two, 'b')(), work(one, 'a2')(), work(two, 'b2')()]);
    const all = claimed.flatMap((c) => c.ids);
    expect(all).toHaveLength(SLOTS);
    expect(new Set(all).size).toBe(SLOTS);
    // Both processes got work (neither waited for the other's locks until it had finished).
    const by = (p: string) => claimed.filter((c) => c.who.startsWith(p)).reduce((n, c) => n + c.ids.length, 0);
    expect(by('a')).toBeGreaterThan(0);
    expect(by('b')).toBeGreaterThan(0);
    // Leased: nobody claims them again until the lease runs out …
    expect(await claimRenderSpread(two.db, 'c', 20_000, 60_000, 1000)).toHaveLength(0);
    // … then anyone does (the holder died).
    expect(await claimRenderSpread(two.db, 'c', 70_001, 60_000, 1000)).toHaveLength(SLOTS);
  });

  it('a row another transaction holds locked is skipped, not waited for', async () => {
    const locked = await one.db.transaction().execute(async (trx) => {
      const held = await trx
        .selectFrom('device_tasks')
        .select('id')
        .where('state', '=', 'render')
        .orderBy('prio')
        .orderBy('id')
        .limit(10)
        .forUpdate()
        .execute();
      // Leases ran out (200_000 > 70_001 + 60_000): all free; the 10 locked ones are passed over.
      const got = await claimRenderSpread(two.db, 'd', 200_000, 60_000, 1000);
      return { held: held.map((h) => h.id), got: got.map((g) => g.id) };
    });
    expect(locked.got).toHaveLength(SLOTS - 10);
    expect(locked.got.filter((id) => locked.held.includes(id))).toEqual([]);
  });
});

describe('refused at start', () => {
  const me = (o: Partial<MemberInfo>): MemberInfo => ({
    host: 'h1',
    pid: 1,
    broker: 'external',
    dialect: 'postgres',
    workers: 1,
    ...o,
  });
  const alive = () => true;

  it('several external-broker processes on PostgreSQL run side by side', () => {
    expect(refusalReason(me({}), [me({ host: 'h2' }), me({ host: 'h3' })], alive)).toBeNull();
    expect(refusalReason(me({ broker: 'none' }), [me({ host: 'h2' })], alive)).toBeNull();
  });

  it('SQLite, or an embedded broker, beside another live process: refused, saying why', () => {
    expect(refusalReason(me({ dialect: 'sqlite' }), [me({ host: 'h2', dialect: 'sqlite' })], alive)).toMatch(
      /SQLite database; several processes need PostgreSQL/,
    );
    expect(refusalReason(me({ broker: 'embedded' }), [me({ host: 'h2' })], alive)).toMatch(
      /external broker \(MQTT_URL\)/,
    );
    expect(refusalReason(me({}), [me({ host: 'h2', pid: 7, broker: 'embedded' })], alive)).toMatch(
      /h2 pid 7 runs the embedded station broker/,
    );
  });

  it('a dead process does not count', () => {
    expect(refusalReason(me({ broker: 'embedded' }), [me({ host: 'h2' })], () => false)).toBeNull();
  });

  it('WORKERS > 1 needs PostgreSQL and no embedded broker', () => {
    expect(workersRefusal(1, 'sqlite', 'embedded')).toBeNull();
    expect(workersRefusal(2, 'sqlite', 'none')).toMatch(/needs PostgreSQL/);
    expect(workersRefusal(2, 'postgres', 'embedded')).toMatch(/external station broker \(MQTT_URL/);
    expect(workersRefusal(4, 'postgres', 'external')).toBeNull();
    expect(workersRefusal(4, 'postgres', 'none')).toBeNull();
  });
});
