import { createHash, randomBytes } from 'node:crypto';
import type { HelloMsg, JobRef } from '@esl/contract/protocol';
import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryLeases } from '../../infra/cluster/leases';
import { claimLease } from '../../infra/cluster/repository';
import { type Db as Opened, openDatabase, sqliteHandleOf } from '../../infra/db/database';
import type { Database, FirmwareTaskKind } from '../../infra/db/schema';
import { Notices } from '../../infra/notice/notices';
import * as moduleRepo from '../../modules/firmware/repository';
import { buildStation, buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { buildStore, buildTenant } from '../../test/factories';
import { useApp } from '../../test/harness';
import { applyHello } from '../gateway/repository';
import { mqttStationLink } from '../link/station-link';
import type { MqttPort } from '../mqtt/port';
import {
  createFirmwareEngine,
  type FirmwareEngine,
  type FirmwareLogLine,
  type FirmwareStation,
  firmwareJobId,
} from './engine';
import * as repo from './repository';

// The firmware engine's decisions where several server processes share one database: two engine
// instances (with their own connection pool on PostgreSQL, as two processes have) keep a station
// to its `caps.fwConcurrent` tag transfers, take turns by the station's dispatch lease, and judge
// a station's late `ok` by what its hello said to the other, and log one progress row per tenth
// of a transfer between them; label work holds tag upgrades only while it runs at the station or
// is ready for it; stopping a store's tag upgrades leaves none behind.

interface Published {
  topic: string;
  payload: string;
}

function fakePort(sent: Published[]): MqttPort {
  return {
    publish: async (topic, payload) => {
      sent.push({ topic, payload: typeof payload === 'string' ? payload : Buffer.from(payload).toString('utf8') });
    },
    subscribe: async () => async () => {},
    connected: () => true,
    close: async () => {},
  };
}

/** Calls `next` once, after the next statement this plugin's Kysely runs (before its caller sees the result). */
class AfterNextStatement implements KyselyPlugin {
  next: (() => Promise<void>) | null = null;
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    const f = this.next;
    this.next = null;
    if (f) await f();
    return args.result;
  }
}

describe.each(await testDatabases())('firmware engine on one database, several processes ($name)', (target) => {
  const t = useApp(target);
  /** A second process's connections (PostgreSQL); on SQLite both engines share the one. */
  let second: Opened | null = null;
  beforeAll(() => {
    const url = t().app.services.config.databaseUrl;
    if (target.name === 'postgres') second = openDatabase(url);
  });
  afterAll(async () => {
    await second?.close();
  });

  let time = Date.UTC(2026, 2, 1, 9, 0, 0);
  const now = () => time;
  const db = () => t().app.services.db;

  function engine(
    owner: string,
    on: Kysely<Database>,
    sent: Published[] = [],
    logs: FirmwareLogLine[] = [],
  ): FirmwareEngine {
    const e = createFirmwareEngine({
      db: on,
      link: mqttStationLink(fakePort(sent)),
      notices: new Notices(),
      now,
      syslog: (line) => logs.push(line),
      claimStation: deliveryLeases(on, owner, now, 1000).station,
      onError: (err) => {
        throw err;
      },
    });
    dbOf.set(e, on);
    return e;
  }
  const dbOf = new WeakMap<FirmwareEngine, Kysely<Database>>();
  /** A hello as the gateway hands it on: stored on the station's row first, then to the engine. */
  async function greet(e: FirmwareEngine, station: FirmwareStation, m: HelloMsg) {
    await applyHello(dbOf.get(e) ?? db(), station.id, m, time, true);
    await e.onHello(station, m);
  }
  const processes = () => {
    const sentA: Published[] = [];
    const sentB: Published[] = [];
    /** The system log both write to. */
    const logs: FirmwareLogLine[] = [];
    return {
      a: engine('srv-a', db(), sentA, logs),
      b: engine('srv-b', second?.db ?? db(), sentB, logs),
      sentA,
      sentB,
      logs,
    };
  };

  async function store(tags: number) {
    const app = t().app;
    const tenant = await buildTenant(app);
    const storeRow = await buildStore(app, tenant.id);
    const at = { tenantId: tenant.id, storeId: storeRow.id };
    const row = await buildStation(app, at);
    await db().updateTable('stations').set({ online: 1 }).where('id', '=', row.id).execute();
    const station: FirmwareStation = { id: row.id, tenant_id: at.tenantId, store_id: at.storeId, sn: row.sn };
    const tagRows = [];
    for (let i = 0; i < tags; i++) {
      const tag = await buildTag(app, at, { model: '05' });
      await db().updateTable('tags').set({ station_id: row.id }).where('id', '=', tag.id).execute();
      tagRows.push(tag);
    }
    return { at, station, tags: tagRows };
  }

  async function firmware(kind: 'ap' | 'tag', version: string) {
    const bytes = new Uint8Array(randomBytes(512));
    const hash = createHash('sha256').update(bytes).digest('hex');
    const id = await moduleRepo.insertFirmware(db(), {
      kind,
      version,
      name: `${kind}-${version}`,
      bytes,
      hash,
      payloadHash: hash,
      models: kind === 'ap' ? ['SIM-AP'] : [],
      hw: kind === 'tag' ? ['05'] : [],
      now: time,
    });
    return { id, version, hash, size: bytes.length };
  }

  async function upgrade(
    s: Awaited<ReturnType<typeof store>>,
    fw: Awaited<ReturnType<typeof firmware>>,
    kind: FirmwareTaskKind,
    tagId: number | null,
  ) {
    return moduleRepo.openTask(db(), {
      tenantId: s.at.tenantId,
      storeId: s.at.storeId,
      targetKey: tagId === null ? `s:${s.station.id}` : `t:${tagId}`,
      kind,
      stationId: s.station.id,
      tagId,
      firmwareId: fw.id,
      version: fw.version,
      hash: fw.hash,
      size: fw.size,
      fromVersion: '1.0.0',
      createdBy: null,
      now: time,
    });
  }

  const hello = (o: { fwConcurrent: number; ap?: string; queue?: JobRef[]; outbox?: number }): HelloMsg => ({
    v: 1,
    connId: 'conn-1',
    boot: 1,
    model: 'SIM-AP',
    fw: { ap: o.ap ?? '1.0.0', module: '0.9.0' },
    radio: { profile: 'oepl-2g4', channel: 11, kbps: 250 },
    caps: {
      queue: 512,
      queueBytes: 2 * 1024 * 1024,
      inlineMax: 16_384,
      chunk: 16_384,
      fwConcurrent: o.fwConcurrent,
      kinds: ['image', 'tagfw', 'apfw', 'modulefw'],
    },
    queue: o.queue ?? [],
    outbox: o.outbox ?? 0,
    net: { ip: '192.168.1.40', mac: '24:6F:28:A1:B2:C3' },
    cfgRev: 0,
    time,
  });

  const states = async (stationId: number) =>
    db()
      .selectFrom('firmware_tasks')
      .select(['id', 'rev', 'state', 'code'])
      .where('station_id', '=', stationId)
      .orderBy('id')
      .execute();
  const transfers = async (stationId: number) =>
    (await states(stationId)).filter((x) => x.state === 'sent' || x.state === 'accepted');

  it('keeps a station to the tag transfers its last hello allows, whichever process heard the hello', async () => {
    const s = await store(3);
    const { a, b } = processes();
    // The station said 3 to one process, then (restarted, reconfigured) 1 to the other.
    await greet(a, s.station, hello({ fwConcurrent: 3 }));
    await greet(b, s.station, hello({ fwConcurrent: 1 }));
    const fw = await firmware('tag', `1.1.${s.station.id}`);
    for (const tag of s.tags) await upgrade(s, fw, 'tagfw', tag.id);
    await a.pump();
    expect(await transfers(s.station.id)).toHaveLength(1);
    await b.pump();
    expect(await transfers(s.station.id)).toHaveLength(1);

    // The transfer ends at the other process, after the first's lease ran out: it sends the next.
    time += 5000;
    const [first] = await transfers(s.station.id);
    if (!first) throw new Error('no transfer');
    const job = firmwareJobId(first.id);
    await b.onAck(s.station, { v: 1, jobs: [{ id: job, rev: first.rev, ok: true }] });
    await b.onResult(s.station, { v: 1, results: [{ id: job, rev: first.rev, code: 'ok', at: time }] });
    const after = await states(s.station.id);
    expect(after.map((x) => x.state).sort()).toEqual(['installing', 'queued', 'sent']);
  });

  it('two processes dispatching to one station at once send no more than N between them', async () => {
    const s = await store(6);
    const { a, b } = processes();
    await greet(a, s.station, hello({ fwConcurrent: 2 }));
    const fw = await firmware('tag', `1.2.${s.station.id}`);
    for (const tag of s.tags) await upgrade(s, fw, 'tagfw', tag.id);
    time += 5000;
    await Promise.all([a.pump(), b.pump(), a.pump(), b.pump()]);
    expect(await transfers(s.station.id)).toHaveLength(2);
  });

  it('sends nothing to a station while another process holds its dispatch lease; after it lapses, does', async () => {
    const s = await store(1);
    const { a, b, sentB } = processes();
    await greet(a, s.station, hello({ fwConcurrent: 1 }));
    const fw = await firmware('tag', `1.3.${s.station.id}`);
    await upgrade(s, fw, 'tagfw', s.tags[0]?.id ?? null);
    // The first process's label dispatch holds the station (same lease, same owner name).
    time += 5000;
    expect(await claimLease(db(), `station:${s.station.id}`, 'srv-a', time, 3000)).toBe(true);
    await b.pump();
    expect(await transfers(s.station.id)).toHaveLength(0);
    expect(sentB).toEqual([]);
    time += 3001;
    await b.pump();
    expect(await transfers(s.station.id)).toHaveLength(1);
    expect(sentB.map((m) => m.topic.split('/').at(-1))).toContain('jobs');
  });

  it("judges a station's late ok by the version its hello reported to another process", async () => {
    const s = await store(0);
    const { a, b } = processes();
    await greet(a, s.station, hello({ fwConcurrent: 1, ap: '1.0.0' }));
    const fw = await firmware('ap', `2.0.${s.station.id}`);
    await upgrade(s, fw, 'apfw', null);
    await a.pump();
    const [task] = await states(s.station.id);
    if (!task) throw new Error('no task');
    const job = firmwareJobId(task.id);
    await a.onAck(s.station, { v: 1, jobs: [{ id: job, rev: task.rev, ok: true }] });
    // It restarted before its `ok` got out: the job is gone from its queue, one result waits, and
    // it runs the old version.
    await greet(a, s.station, hello({ fwConcurrent: 1, ap: '1.0.0', queue: [], outbox: 1 }));
    expect((await states(s.station.id))[0]?.state).toBe('accepted');
    // The result reaches the other process (or this one after a restart).
    await b.onResult(s.station, { v: 1, results: [{ id: job, rev: task.rev, code: 'ok', at: time }] });
    expect((await states(s.station.id))[0]).toMatchObject({ state: 'failed', code: 'rolledBack' });
  });

  it("logs one progress row per tenth of a transfer, whichever process hears the station's reports", async () => {
    const s = await store(0);
    const { a, b, logs } = processes();
    await greet(a, s.station, hello({ fwConcurrent: 1 }));
    const fw = await firmware('ap', `2.1.${s.station.id}`);
    await upgrade(s, fw, 'apfw', null);
    await a.pump();
    const [task] = await states(s.station.id);
    if (!task) throw new Error('no task');
    const id = firmwareJobId(task.id);
    const at = (share: number) => ({
      v: 1 as const,
      id,
      rev: task.rev,
      done: Math.round(share * fw.size),
      total: fw.size,
    });
    await a.onAck(s.station, { v: 1, jobs: [{ id, rev: task.rev, ok: true }] });
    // Reports alternate between the processes; one arrives late (an older figure).
    for (const [engine, share] of [
      [a, 0.05],
      [b, 0.15],
      [a, 0.18],
      [b, 0.12],
      [a, 0.25],
      [b, 0.27],
      [a, 1],
    ] as const) {
      await engine.onProgress(s.station, at(share));
    }
    const rows = logs.filter((l) => l.event === 'firmware.progress').map((l) => /(\d+) of/.exec(l.message)?.[1]);
    expect(rows).toEqual([at(0.15).done, at(0.25).done, fw.size].map(String));
    const done = await db()
      .selectFrom('firmware_tasks')
      .select('done_bytes')
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    expect(Number(done.done_bytes)).toBe(fw.size);
  });

  // -------------------------------------------------------------------------------------------
  // Label work that holds tag upgrades

  async function labelSlot(
    s: Awaited<ReturnType<typeof store>>,
    tagId: number,
    o: { prio: number; state: 'render' | 'queued' | 'sent'; notBefore: number; stationId: number | null },
  ) {
    await db()
      .insertInto('device_tasks')
      .values({
        tenant_id: s.at.tenantId,
        store_id: s.at.storeId,
        target_key: `t:${tagId}`,
        tag_id: tagId,
        station_id: o.stationId,
        kind: 'image',
        prio: o.prio,
        state: o.state,
        request_id: null,
        code: null,
        detail: null,
        sent_rev: null,
        hash: null,
        size: null,
        wake_at: null,
        ttl_s: null,
        ack_deadline: null,
        done_deadline: null,
        lease_owner: null,
        lease_until: null,
        queued_at: time,
        rendered_at: null,
        sent_at: null,
        accepted_at: null,
        finished_at: null,
        created_at: time,
        not_before: o.notBefore,
      })
      .execute();
  }

  it('a label update backing off (a tag not heard) does not hold tag upgrades', async () => {
    const s = await store(2);
    const [upgraded, labelled] = s.tags;
    if (!upgraded || !labelled) throw new Error('tags');
    const { a } = processes();
    await greet(a, s.station, hello({ fwConcurrent: 1 }));
    // Sent to this station before, failed, waiting an hour before the next try.
    await labelSlot(s, labelled.id, { prio: 1, state: 'queued', notBefore: time + 3_600_000, stationId: s.station.id });
    const fw = await firmware('tag', `1.4.${s.station.id}`);
    await upgrade(s, fw, 'tagfw', upgraded.id);
    time += 5000;
    await a.pump();
    expect(await transfers(s.station.id)).toHaveLength(1);
  });

  it('label work holds tag upgrades while it runs at the station or is due there now', async () => {
    const s = await store(2);
    const [, tag] = s.tags;
    if (!tag) throw new Error('tags');
    const { station } = s;
    const other = await buildStation(t().app, s.at);
    const waits = () => repo.labelWorkWaits(db(), station.id, time);
    const slot = () => db().selectFrom('device_tasks').select('id').where('tag_id', '=', tag.id);
    const set = async (v: { state?: 'render' | 'queued' | 'sent'; not_before?: number; prio?: number }) => {
      const row = await slot().executeTakeFirstOrThrow();
      await db().updateTable('device_tasks').set(v).where('id', '=', row.id).execute();
    };

    // Queued for the tag's station, due now: holds. Never sent anywhere (no station on the slot).
    await labelSlot(s, tag.id, { prio: 1, state: 'queued', notBefore: time, stationId: null });
    expect(await waits()).toBe(true);
    // Backing off: holds nothing until it is due again.
    await set({ not_before: time + 60_000 });
    expect(await waits()).toBe(false);
    // To be rendered, for this station: holds.
    await set({ state: 'render', not_before: 0 });
    expect(await waits()).toBe(true);
    // Bulk work (priority 2) never holds.
    await set({ state: 'queued', prio: 2 });
    expect(await waits()).toBe(false);
    // The tag now answers another station: the slot goes there, not here.
    await set({ prio: 1 });
    await db().updateTable('tags').set({ station_id: other.id }).where('id', '=', tag.id).execute();
    expect(await waits()).toBe(false);
    // Running at this station (sent here): holds, wherever the tag is heard now.
    await db()
      .updateTable('device_tasks')
      .set({ state: 'sent', station_id: station.id })
      .where('tag_id', '=', tag.id)
      .execute();
    expect(await waits()).toBe(true);
  });

  // -------------------------------------------------------------------------------------------
  // Stop

  it('stop leaves no tag upgrade behind when one is sent while it runs', async () => {
    const s = await store(3);
    const sent: Published[] = [];
    const plugin = new AfterNextStatement();
    const stopper = engine('srv-c', db().withPlugin(plugin), sent);
    await greet(stopper, s.station, hello({ fwConcurrent: 3 }));
    const fw = await firmware('tag', `1.5.${s.station.id}`);
    const ids = [];
    for (const tag of s.tags) ids.push(await upgrade(s, fw, 'tagfw', tag.id));
    const [atStation, racing, queued] = ids;
    if (!atStation || !racing || !queued) throw new Error('tasks');
    const sendNow = (id: number, on = db()) =>
      repo.move(
        on,
        { id, rev: 1, from: ['queued'] },
        { state: 'sent', attempt: 1, sent_at: time, deadline: time + 15_000 },
      );
    expect(await sendNow(atStation)).toBe(true);
    // A dispatch sends one more right after stop's first statement: another process's on
    // PostgreSQL; on SQLite (one process, one connection, held by that statement until this
    // returns) this process's own, through the connection's handle.
    const handle = sqliteHandleOf(db());
    plugin.next = async () => {
      if (handle)
        handle.prepare(`update firmware_tasks set state = 'sent' where id = ? and state = 'queued'`).run(racing);
      else await sendNow(racing, second?.db);
    };
    const result = await stopper.stopTags(s.at.tenantId, s.at.storeId);

    const byId = new Map((await states(s.station.id)).map((x) => [x.id, x.state]));
    const cancels = sent
      .filter((m) => m.topic.endsWith('/cancel'))
      .flatMap((m) => (JSON.parse(m.payload) as { ids: JobRef[] }).ids.map(([id]) => id));
    // Every upgrade is either cancelled here or asked to stop at its station.
    for (const id of ids) {
      expect({ id, handled: byId.get(id) === 'cancelled' || cancels.includes(firmwareJobId(id)) }).toEqual({
        id,
        handled: true,
      });
    }
    expect(byId.get(queued)).toBe('cancelled');
    expect(cancels).toContain(firmwareJobId(atStation));
    expect(result.cancelled + result.stopping).toBe(3);
  });
});
