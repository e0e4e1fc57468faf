import {
  type AckMsg,
  type BlobRequestMsg,
  type HelloMsg,
  type Job,
  LIMITS,
  type ResultMsg,
  type StationCaps,
} from '@esl/contract/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema';
import { groupBy } from '../../infra/lib/group';
import type { Notices } from '../../infra/notice/notices';
import type { RenderedImage, RenderJob, RenderOutcome } from '../../infra/render';
import { createPageRunner } from '../../modules/pages/runner';
import { onTasksChanged } from '../../outbox/slots/enqueue';
import type { JobConsumer, LinkStation } from '../link/consumers';
import type { StationLink } from '../link/station-link';
import { applyDue, type PlanDeps, planTags, type SweepCursor } from './plan';
import * as repo from './repository';

/*
 * The scheduler (docs/SCHEDULE.md, docs/PROTOCOL.md §5.14). Durable: everything it knows is in
 * `scheduled_changes` and `timed_labels`, so a restart loses nothing — at its first tick it applies
 * what came due meanwhile and plans again. Each tick: due changes take effect; tags are planned;
 * planned labels go to stations that take `timed` jobs (`caps.kinds`), which hand them to their
 * tags ahead of time; the tags switch at the time on their own. A station that cannot hold timed
 * images gets nothing here: when the change takes effect its tags are relabelled first in line.
 * It is the uplink's consumer of kind 'timed' (job ids `zt` + 14 base-36 digits). Each tick also
 * runs the page schedules (modules/pages/runner.ts): their switches are sent ahead as `page` jobs
 * with a time, through the task engine.
 */

export const timedJobId = (id: number) => `zt${id.toString(36).padStart(14, '0')}`;
const labelIdOf = (job: string) => Number.parseInt(job.slice(2), 36);

/** Resent after this long without an ack or result; a station's `full` waits this long. */
const ACK_MS = 15_000;
const RETRY_MS = 10_000;
const MAX_ATTEMPTS = 5;
/** Queued labels a pass dispatches. */
const DISPATCH_BATCH = 2048;

export interface ScheduleEngineOptions {
  db: Kysely<Database>;
  link: StationLink;
  now: () => number;
  render: (jobs: RenderJob[]) => Promise<RenderOutcome[]>;
  storeImages: (tenantId: number, images: RenderedImage[]) => Promise<void>;
  loadImage: (tenantId: number, hash: string) => Promise<Uint8Array | null>;
  /** Several processes: true while this one holds the station's dispatch lease. */
  claimStation?: (stationId: number) => Promise<boolean>;
  /** The console notices: the user who scheduled a change hears that it took effect. */
  notices?: Notices | null;
  onError?: (err: unknown, what: string) => void;
}

export interface ScheduleEngine extends JobConsumer {
  readonly kind: 'timed';
  /** Applies due changes, plans, dispatches, re-sends overdue jobs. */
  tick(): Promise<void>;
  /** Resolves when the tick under way (if any) has finished. */
  idle(): Promise<void>;
  close(): void;
  readonly counters: { applied: number; planned: number; sent: number; held: number; withdrawn: number };
}

export function createScheduleEngine(o: ScheduleEngineOptions): ScheduleEngine {
  const counters = { applied: 0, planned: 0, sent: 0, held: 0, withdrawn: 0 };
  /** Caps of the stations that said hello to this process. */
  const caps = new Map<number, StationCaps>();
  const key = (s: { tenant_id: number; sn: string }) => ({ tenantId: s.tenant_id, sn: s.sn });
  const stationsById = new Map<number, LinkStation>();

  const withdraw = async (row: repo.TimedRow) => {
    const st = row.station_id === null ? undefined : stationsById.get(row.station_id);
    if (!st) return;
    counters.withdrawn++;
    await o.link.send(key(st), 'cancel', { v: 1, ids: [[timedJobId(row.id), row.rev]], reason: 'superseded' });
  };
  const deps: PlanDeps = {
    db: o.db,
    now: o.now,
    render: o.render,
    storeImages: (tenantId, images) => o.storeImages(tenantId, images),
    withdraw,
    counters,
    notices: o.notices ?? null,
  };

  /** Sends a batch of queued labels; answers whether a full batch went out (there may be more). */
  async function dispatch(): Promise<boolean> {
    const now = o.now();
    const rows = await repo.queuedLabels(o.db, now, DISPATCH_BATCH);
    // A product's tags share their picture: loaded once a batch.
    const images = new Map<string, Promise<Uint8Array | null>>();
    const image = (tenantId: number, hash: string) => {
      const k = `${tenantId}:${hash}`;
      const known = images.get(k);
      if (known) return known;
      const p = o.loadImage(tenantId, hash);
      images.set(k, p);
      return p;
    };
    let moved = 0;
    // Its time has come (or it has no picture): the change's own relabel (first in line) shows it.
    const late: Array<readonly [number, number]> = [];
    // The others, a station at a time: one statement moves its rows to sent, and what moved goes
    // out in messages of up to the protocol's jobs per message.
    const going: typeof rows = [];
    for (const r of rows) {
      if (Number(r.show_at) <= now + 1000 || !r.hash) {
        late.push([r.id, r.rev]);
        continue;
      }
      const c = caps.get(r.station_id);
      if (r.online && c && stationsById.has(r.station_id) && c.kinds.includes('timed')) going.push(r);
    }
    moved += await repo.moveMany(o.db, late, ['queued'], { state: 'idle', now });
    const tenantOf = new Map(rows.map((r) => [r.id, r.tenant_id]));
    const hardwareOf = new Map(rows.map((r) => [r.id, r.hardware_id]));
    for (const [stationId, theirs] of groupBy(going, (r) => r.station_id)) {
      const st = stationsById.get(stationId) as LinkStation;
      const c = caps.get(stationId) as StationCaps;
      if (o.claimStation && !(await o.claimStation(stationId))) continue;
      const sent = await repo.sendMany(
        o.db,
        theirs.map((r) => [r.id, r.rev] as const),
        stationId,
        now + ACK_MS,
        now,
      );
      moved += sent.length;
      counters.sent += sent.length;
      // The pictures inline, each distinct one read once, the reads at once (over the pool's connections).
      const pictures = await Promise.all(
        sent.map((row) =>
          (row.size ?? 0) <= c.inlineMax ? image(tenantOf.get(row.id) as number, row.hash as string) : null,
        ),
      );
      const jobs: Job[] = [];
      for (const [i, row] of sent.entries()) {
        const hash = row.hash as string;
        const showAt = Number(row.show_at);
        const bytes = pictures[i];
        jobs.push({
          id: timedJobId(row.id),
          rev: row.rev,
          att: row.attempt,
          kind: 'timed',
          tag: hardwareOf.get(row.id) as string,
          prio: 1,
          ttlS: Math.min(7 * 86_400, Math.max(1, Math.ceil((showAt - now) / 1000))),
          at: showAt,
          image: {
            hash,
            ver: hash.slice(0, 16),
            size: Number(row.size),
            ...(bytes ? { data: Buffer.from(bytes).toString('base64') } : {}),
          },
        });
      }
      for (let i = 0; i < jobs.length; i += LIMITS.maxJobsPerMessage)
        await o.link.send(key(st), 'jobs', { v: 1, jobs: jobs.slice(i, i + LIMITS.maxJobsPerMessage) });
    }
    // Labels left queued (station offline or not ours) do not count: they would keep the passes going.
    return rows.length === DISPATCH_BATCH && moved > 0;
  }

  /*
   * A pass is bounded (docs/SCHEDULE.md "Planning in batches"): the due changes, one planner
   * batch, one dispatch batch. When a pass leaves more to do, the next one follows on the next
   * turn of the event loop rather than at the timer's next tick, and `tick()` answers after its own
   * pass (a tick asked for during a pass gets the next one): the sweeper and the server's start
   * do not wait for 100,000 changes to be planned; `idle()` waits until nothing is left.
   */
  const cursor: SweepCursor = { product: 0, label: 0 };
  let running: Promise<void> | null = null;
  let again = false;
  let more = false;
  let follow: ReturnType<typeof setImmediate> | null = null;
  let closed = false;
  // Page schedules (docs/PAGES.md): their switches go out as page requests of the task engine.
  const pages = createPageRunner(o.db, o.now);
  async function run(): Promise<boolean> {
    await applyDue(deps);
    const planning = await planTags(deps, cursor);
    await repo.overdue(o.db, o.now());
    const sending = await dispatch();
    await pages.run();
    return planning || sending;
  }
  function tick(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    if (follow) clearImmediate(follow);
    follow = null;
    running = (async () => {
      again = false;
      try {
        more = await run();
      } catch (err) {
        more = false;
        o.onError?.(err, 'schedule tick');
      }
    })().finally(() => {
      running = null;
      // Asked again during the pass (a change meanwhile): one more pass, as when work is left.
      if (again) more = true;
      again = false;
      if (more && !closed)
        follow = setImmediate(() => {
          follow = null;
          void tick();
        });
    });
    return running;
  }
  const off = onTasksChanged(() => void tick());

  /** A station's results (docs/PROTOCOL.md §5.14): a few statements whatever their number. */
  async function onResults(station: LinkStation, results: ResultMsg['results']) {
    const now = o.now();
    const pairs = (code: (c: ResultMsg['results'][number]['code']) => boolean) =>
      results.filter((r) => code(r.code)).map((r) => [labelIdOf(r.id), r.rev] as const);
    counters.held += await repo.moveMany(
      o.db,
      pairs((c) => c === 'ok' || c === 'skipped'),
      ['sent', 'held'],
      { state: 'held', now },
      station.id,
    );
    await repo.moveMany(
      o.db,
      pairs((c) => c === 'cancelled' || c === 'replaced'),
      ['sent', 'held'],
      { state: 'idle', now },
      station.id,
    );
    // A failure: tried again, a few times, unless the tag cannot take it.
    const failed = results.filter((r) => !['ok', 'skipped', 'cancelled', 'replaced'].includes(r.code));
    if (failed.length === 0) return;
    const rows = new Map(
      (
        await repo.labelsByIds(
          o.db,
          failed.map((r) => labelIdOf(r.id)),
        )
      ).map((r) => [r.id, r]),
    );
    for (const r of failed) {
      const row = rows.get(labelIdOf(r.id));
      if (!row || row.rev !== r.rev || row.station_id !== station.id) continue;
      const at = { id: row.id, rev: row.rev, from: ['sent', 'held'] };
      if (row.attempt < MAX_ATTEMPTS && r.code !== 'unsupported' && r.code !== 'lowBattery')
        await repo.move(o.db, at, { state: 'queued', due_at: now + RETRY_MS, now });
      else await repo.move(o.db, at, { state: 'failed', now });
    }
  }

  return {
    kind: 'timed',
    counters,
    tick,
    idle: async () => {
      for (;;) {
        if (running) await running;
        else if (follow) await new Promise((r) => setImmediate(r));
        else return;
      }
    },
    close: () => {
      closed = true;
      if (follow) clearImmediate(follow);
      follow = null;
      off();
    },
    async onHello(station: LinkStation, m: HelloMsg) {
      caps.set(station.id, m.caps);
      stationsById.set(station.id, station);
      const held = new Map(m.queue.map(([id, rev]) => [id, rev]));
      const now = o.now();
      const sent = await repo.sentTo(o.db, station.id);
      const known = new Set(sent.map((r) => timedJobId(r.id)));
      // Sent but not held at the current rev: sent again; held but not ours any more: dropped.
      await repo.moveMany(
        o.db,
        sent.filter((r) => held.get(timedJobId(r.id)) !== r.rev).map((r) => [r.id, r.rev] as const),
        ['sent'],
        { state: 'queued', due_at: now, now },
      );
      const stale = [...held].filter(([id]) => !known.has(id));
      if (stale.length) await o.link.send(key(station), 'cancel', { v: 1, ids: stale, reason: 'unknown' });
      void tick();
    },
    async onAck(station: LinkStation, m: AckMsg) {
      const now = o.now();
      const pairs = (pick: (a: AckMsg['jobs'][number]) => boolean) =>
        m.jobs.filter(pick).map((a) => [labelIdOf(a.id), a.rev] as const);
      // Taken: kept as sent until its time (and a minute), when the result is due.
      await repo.ackedMany(
        o.db,
        pairs((a) => a.ok),
        station.id,
        now,
      );
      // The station's store is full: offered again in a while. Refused otherwise (stale: ignored).
      await repo.moveMany(
        o.db,
        pairs((a) => !a.ok && a.code === 'full'),
        ['sent'],
        { state: 'queued', due_at: now + 5000, now },
        station.id,
      );
      await repo.moveMany(
        o.db,
        pairs((a) => !a.ok && a.code !== 'full' && a.code !== 'stale'),
        ['sent'],
        { state: 'failed', now },
        station.id,
      );
    },
    async onResult(station: LinkStation, m: ResultMsg) {
      await onResults(station, m.results);
      await o.link.send(key(station), 'resack', { v: 1, ids: m.results.map((r) => [r.id, r.rev] as [string, number]) });
    },
    async onBlob(station: LinkStation, m: BlobRequestMsg) {
      const sent = await repo.sentTo(o.db, station.id);
      if (!sent.some((r) => r.hash === m.hash)) return false;
      const bytes = await o.loadImage(station.tenant_id, m.hash);
      if (!bytes || m.offset >= bytes.length) return false;
      await o.link.sendBlobChunk(key(station), m.hash, m.offset, bytes.subarray(m.offset, m.offset + m.length));
      return true;
    },
  };
}
