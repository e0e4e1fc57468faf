import { createHash } from 'node:crypto';
import {
  type AckMsg,
  type BlobRequestMsg,
  DEFAULTS,
  encodeJobMessages,
  encodeMessage,
  type HeartbeatMsg,
  type HelloMsg,
  type Job,
  type JobRef,
  LIMITS,
  type ResultMsg,
  type StationCaps,
  type StationKey,
  topics,
} from '@esl/contract/protocol';
import type { LabelData } from '@esl/labels';
import type { Kysely, Transaction } from 'kysely';
import type { Database, TaskState } from '../../infra/db/schema';
import { addToPush, appendTagLog, closeIdlePushes, closeRenderedPushes, type TagLogResult } from '../../infra/logs';
import type { Notices } from '../../infra/notice/notices';
import type { RenderedImage, RenderJob, RenderOutcome } from '../../infra/render';
import * as products from '../../modules/products/service';
import * as templates from '../../modules/templates/service';
import { enqueueTagResult, tagResultOf } from '../../outbox/results/repository';
import { onTasksChanged } from '../../outbox/slots/enqueue';
import * as outbox from '../../outbox/slots/repository';
import type { MqttPort } from '../mqtt/port';
import {
  ACK_MS,
  backoffMs,
  DONE_SLACK_MS,
  handlingOf,
  jobId,
  MAX_ATTEMPTS,
  RENDER_LEASE_MS,
  slotId,
  ttlS,
  windowSize,
} from './policy';
import * as repo from './repository';

/*
 * The task engine (DELIVERY.md §5.2–5.4): renders slots waiting in `render`, dispatches queued
 * ones to their station within its in-flight window, and moves them on acks, results, hellos
 * and deadlines — each move one conditional UPDATE, so a late or repeated message changes
 * nothing. The database is the only queue: whatever this process loses in a crash, the
 * reconciler, the deadlines and the stations' hellos bring back.
 */

/** The render pool and the image store (delivery/render), as the engine uses them. */
export interface RenderBackend {
  render(jobs: RenderJob[]): Promise<RenderOutcome[]>;
  storeImages(trx: Transaction<Database>, tenantId: number, images: RenderedImage[]): Promise<void>;
  loadImage(db: Kysely<Database>, tenantId: number, hash: string): Promise<Uint8Array | null>;
  /** Deletes stored images no tag wants or shows any more; answers how many. */
  collect?(db: Kysely<Database>, now: number): Promise<number>;
  close(): Promise<void>;
}

export interface EngineOptions {
  db: Kysely<Database>;
  port: MqttPort;
  notices: Notices;
  now: () => number;
  render: RenderBackend;
  /** Name of this instance's leases. */
  owner?: string;
  /** Reconciler period, ms (60 s). */
  reconcileMs?: number;
  /** Period of the image garbage collection, ms (1 h; the first runs at the first tick). */
  collectMs?: number;
  /** Multiplies retry backoff (tests on a fast clock). */
  backoffScale?: number;
  random?: () => number;
  /**
   * Slots per render claim (512). The first claim of a burst (nothing claimed ahead) takes at most
   * FIRST_BATCH, so the first jobs go out after a short render.
   */
  renderBatch?: number;
  /**
   * Several server processes (cluster/leases.ts): takes or renews this process's short lease on a
   * station's dispatch; false while another process holds it. Absent: one process dispatches all.
   */
  claimStation?: (stationId: number) => Promise<boolean>;
  onError?: (err: unknown, what: string) => void;
}

/** What the engine knows of a connected station from its hello. */
interface StationInfo {
  caps: StationCaps;
}

/** A station as the gateway found it. */
export interface StationRef {
  id: number;
  tenant_id: number;
  store_id: number;
  sn: string;
}

export interface TaskEngine {
  start(): Promise<void>;
  /** Deadlines, the reconciler when due, and a pump. */
  tick(): Promise<void>;
  /** Runs the reconciler now. */
  reconcile(tagIds?: readonly number[]): Promise<number>;
  /** Schedules a pump (render + dispatch). */
  kick(): void;
  /** Resolves when no pump is running or scheduled. */
  idle(): Promise<void>;
  onHello(station: StationRef, m: HelloMsg): Promise<void>;
  onAck(station: StationRef, m: AckMsg): Promise<void>;
  onResult(station: StationRef, m: ResultMsg): Promise<void>;
  onBlob(station: StationRef, m: BlobRequestMsg): Promise<void>;
  /** Tags reported by a station: heal what they show, dispatch what waited for a route. */
  onTagsReported(tagIds: readonly number[]): Promise<void>;
  /** A station's heartbeat: its measured radio service rate. */
  onHeartbeat(station: StationRef, m: HeartbeatMsg): void;
  /** The service rate (tags/s) and in-flight window a station's dispatch uses now. */
  windowOf(stationId: number): { svcPerS: number; window: number };
  readonly counters: EngineCounters;
  close(): Promise<void>;
}

export interface EngineCounters {
  /** Labels handed to the render pool, a revision superseded while it was drawn included. */
  renders: number;
  /** Renders written (the slot's revision was still current). */
  rendered: number;
  /** Slots whose picture depended on nothing that changed: no render. */
  renderReused: number;
  renderFailed: number;
  skipped: number;
  jobsSent: number;
  acks: number;
  results: number;
  resent: number;
  reopened: number;
  /** Stored images deleted by the garbage collection. */
  imagesCollected: number;
  /** Jobs taken back from a station because their tag is now routed to another. */
  rerouted: number;
  blobsServed: number;
  blobsRefused: number;
}

const DEFAULT_CAPS: StationCaps = {
  queue: 256,
  queueBytes: 4 * 1024 * 1024,
  inlineMax: DEFAULTS.inlineMax,
  chunk: DEFAULTS.chunk,
  fwConcurrent: 1,
  kinds: ['image', 'led', 'ping', 'rollcall'],
};
/** Estimated radio service rate of an `oepl-2g4` station, tags/s (DELIVERY.md §7). */
const SVC_PER_S = 9.7;
const ACTIVE_AT_STATION: readonly TaskState[] = ['sent', 'accepted'];

/** Slots of the first render claim of a burst: its labels render in well under a second. */
const FIRST_BATCH = 64;

/** Version of what renders a label: bump it when the renderer or its fonts change pictures. */
const RENDERER = 'r1';

/** What a tag's picture depends on: template and revision, the values it shows, model and colours. */
export function renderKey(
  templateId: number,
  revision: number,
  values: unknown,
  model: string,
  colour: string,
): string {
  return createHash('sha256')
    .update(JSON.stringify([RENDERER, templateId, revision, values, model, colour]))
    .digest('hex')
    .slice(0, 32);
}

export function createTaskEngine(o: EngineOptions): TaskEngine {
  const { db, port, notices, now } = o;
  const owner = o.owner ?? `srv-${process.pid}`;
  const reconcileMs = o.reconcileMs ?? 60_000;
  const random = o.random ?? Math.random;
  const batch = o.renderBatch ?? 512;
  const stations = new Map<number, StationInfo>();
  const counters: EngineCounters = {
    renders: 0,
    rendered: 0,
    renderReused: 0,
    renderFailed: 0,
    skipped: 0,
    jobsSent: 0,
    acks: 0,
    results: 0,
    resent: 0,
    reopened: 0,
    imagesCollected: 0,
    rerouted: 0,
    blobsServed: 0,
    blobsRefused: 0,
  };
  let lastReconcile = Number.NEGATIVE_INFINITY;
  let lastCollect = Number.NEGATIVE_INFINITY;
  const collectMs = o.collectMs ?? 3_600_000;
  let closed = false;
  let pumping: Promise<void> | null = null;
  let again = false;
  const fail = (err: unknown, what: string) => o.onError?.(err, what);

  // Notices, gathered and sent once per pump/message: changed tags per tenant and store, request progress.
  const changedTags = new Map<string, { tenantId: number; storeId: number; ids: Set<number> }>();
  const progress = new Map<number, outbox.RequestRow>();
  const progressSentAt = new Map<number, number>();
  const tagChanged = (tenantId: number, storeId: number, id: number | null) => {
    if (id === null) return;
    const key = `${tenantId}:${storeId}`;
    const entry = changedTags.get(key) ?? { tenantId, storeId, ids: new Set<number>() };
    entry.ids.add(id);
    changedTags.set(key, entry);
  };
  const flushNotices = () => {
    for (const { tenantId, storeId, ids } of changedTags.values()) {
      notices.broadcast(tenantId, { type: 'tag.changed', storeId, ids: [...ids] });
    }
    changedTags.clear();
    // At most 4 progress notices a second per request (the last one, 'done', always goes out).
    const real = performance.now();
    for (const r of progress.values()) {
      const last = progressSentAt.get(r.id);
      if (r.status !== 'done' && last !== undefined && real - last < 250) continue;
      progress.delete(r.id);
      if (r.status === 'done') progressSentAt.delete(r.id);
      else progressSentAt.set(r.id, real);
      notices.broadcast(r.tenant_id, {
        type: 'request.progress',
        id: r.id,
        storeId: r.store_id,
        done: Number(r.done),
        failed: Number(r.failed),
        total: Number(r.total),
        status: r.status,
      });
    }
  };

  /** A slot's revision ended: its request counts it, the tag log gets its row. */
  async function settled(
    trx: Kysely<Database>,
    slot: {
      request_id: number | null;
      tenant_id: number;
      store_id: number;
      tag_id: number | null;
      kind?: string;
      rev?: number;
      hardware_id?: string | null;
      attempt?: number;
      queued_at?: number | null;
      sent_at?: number | null;
      hash?: string | null;
    },
    ok: boolean,
    log?: { result: TagLogResult; code: string | null; stationSn?: string | null; airMs?: number; rssi?: number },
  ) {
    tagChanged(slot.tenant_id, slot.store_id, slot.tag_id);
    if (log && slot.tag_id !== null && slot.hardware_id && slot.rev !== undefined) {
      await appendTagLog(trx, [
        {
          tenantId: slot.tenant_id,
          storeId: slot.store_id,
          tagId: slot.tag_id,
          hardwareId: slot.hardware_id,
          requestId: slot.request_id,
          kind: slot.kind === 'image' ? 'refresh' : (slot.kind ?? 'refresh'),
          rev: slot.rev,
          result: log.result,
          code: log.code === 'ok' ? null : log.code,
          hash: slot.hash ?? null,
          stationSn: log.stationSn ?? null,
          attempts: Number(slot.attempt ?? 0),
          queuedAt: slot.queued_at ?? null,
          sentAt: slot.sent_at ?? null,
          finishedAt: now(),
          airMs: log.airMs ?? null,
          rssi: log.rssi ?? null,
        },
      ]);
      // The tenant's callback (if it set a URL), in this transaction (callbacks/outbox.ts).
      await enqueueTagResult(trx, slot.tenant_id, tagResultOf(slot, log.result, log.code), now());
    }
    if (slot.request_id === null) return;
    const row = await outbox.countRequest(trx, slot.request_id, ok ? 1 : 0, ok ? 0 : 1, now());
    if (row) progress.set(row.id, row);
  }

  // -------------------------------------------------------------------------------------------
  // Render stage

  /** A claimed batch: what each tag needs, and its renders under way in the pool. */
  interface Claimed {
    slots: repo.RenderSlot[];
    tags: Map<number, Awaited<ReturnType<typeof repo.tagsForRender>>[number]>;
    problems: Map<number, string>;
    keys: Map<number, string>;
    reused: Map<number, { tagId: number; hash: string; size: number }>;
    outcomes: Promise<RenderOutcome[]>;
  }

  /**
   * Claims a batch (spread over the stations), reads what its labels show and hands the renders
   * to the pool; answers without waiting for them, so the pump writes the previous batch and
   * dispatches while the workers draw this one.
   */
  async function claimBatch(size: number): Promise<Claimed | null> {
    const t = now();
    const slots = await repo.claimRenderSpread(db, owner, t, RENDER_LEASE_MS, size);
    if (slots.length === 0) return null;
    const tags = new Map(
      (
        await repo.tagsForRender(
          db,
          slots.flatMap((s) => (s.tag_id === null ? [] : [s.tag_id])),
        )
      ).map((x) => [x.id, x]),
    );
    // What each tag shows: its template (by the assignment rules) and its product's data.
    const jobs: RenderJob[] = [];
    const problems = new Map<number, string>();
    const keys = new Map<number, string>();
    const reused = new Map<number, { tagId: number; hash: string; size: number }>();
    const byStore = new Map<string, repo.RenderSlot[]>();
    for (const s of slots)
      byStore.set(`${s.tenant_id}:${s.store_id}`, [...(byStore.get(`${s.tenant_id}:${s.store_id}`) ?? []), s]);
    for (const group of byStore.values()) {
      const { tenant_id: tenantId, store_id: storeId } = group[0] as repo.RenderSlot;
      const rows = group.flatMap((s) => {
        const tag = s.tag_id === null ? undefined : tags.get(s.tag_id);
        return tag ? [tag] : [];
      });
      const labels = await templates.resolveTemplates(
        db,
        rows.map((r) => ({ id: r.id, tenantId, storeId, model: r.model, colour: r.colour, productId: r.product_id })),
      );
      const docs = await templates.documentsOf(
        db,
        tenantId,
        [...labels.values()].flatMap((l) => (l.templateId === null ? [] : [l.templateId])),
      );
      const data = await products.labelDataOf(
        db,
        { tenantId, storeId },
        rows.flatMap((r) => (r.product_id === null ? [] : [r.product_id])),
      );
      for (const r of rows) {
        const label = labels.get(r.id);
        const doc = label?.templateId == null ? undefined : docs.get(label.templateId);
        if (!doc) {
          problems.set(r.id, 'noTemplate');
          continue;
        }
        const values = r.product_id === null ? {} : (data.get(r.product_id)?.data ?? {});
        // What the picture depends on; unchanged since the last render → the render is skipped too.
        const key = renderKey(label?.templateId ?? 0, doc.revision, values, r.model, r.colour);
        keys.set(r.id, key);
        const slot = group.find((x) => x.tag_id === r.id);
        if (
          slot &&
          !Number(slot.force) &&
          r.render_key === key &&
          r.desired_hash &&
          slot.hash === r.desired_hash &&
          slot.size
        ) {
          reused.set(r.id, { tagId: r.id, hash: r.desired_hash, size: Number(slot.size) });
          continue;
        }
        jobs.push({ tenantId, tagId: r.id, doc: doc.doc, data: values as LabelData, model: r.model, colour: r.colour });
      }
    }
    counters.renders += jobs.length;
    const outcomes = jobs.length ? o.render.render(jobs) : Promise.resolve([]);
    outcomes.catch(() => {}); // awaited by storeBatch; not an unhandled rejection meanwhile
    return { slots, tags, problems, keys, reused, outcomes };
  }

  /** Writes a claimed batch once rendered: images, what each tag desires, slots queued (or done, or failed). */
  async function storeBatch(claimed: Claimed): Promise<void> {
    const { slots, tags, problems, keys, reused } = claimed;
    const outcomes = new Map((await claimed.outcomes).map((x) => [x.tagId, x]));
    await db.transaction().execute(async (trx) => {
      const images = new Map<number, RenderedImage[]>();
      for (const x of outcomes.values()) {
        if (!('hash' in x)) continue;
        const tenantId = tags.get(x.tagId)?.tenant_id;
        if (tenantId === undefined) continue;
        images.set(tenantId, [...(images.get(tenantId) ?? []), x]);
      }
      for (const [tenantId, list] of images) await o.render.storeImages(trx, tenantId, list);
      const t2 = now();
      const pushes = new Map<number, { rendered: number; failed: number; exception?: string }>();
      const pushed = (id: number | null, ok: boolean, why?: string) => {
        if (id === null) return;
        const p = pushes.get(id) ?? { rendered: 0, failed: 0 };
        if (ok) p.rendered++;
        else {
          p.failed++;
          p.exception ??= why;
        }
        pushes.set(id, p);
      };
      for (const s of slots) {
        const tag = s.tag_id === null ? undefined : tags.get(s.tag_id);
        const x = s.tag_id === null ? undefined : (outcomes.get(s.tag_id) ?? reused.get(s.tag_id));
        if (!tag || !x || !('hash' in x)) {
          const detail = !tag ? 'noTag' : (problems.get(tag.id) ?? (x && 'error' in x ? x.error : 'noRender'));
          // No template chose the tag: nothing to show, not a failed synthesis (logged only when asked for).
          const code = detail === 'noTemplate' ? 'noTemplate' : 'renderError';
          if (
            await repo.slotFailed(trx, {
              id: s.id,
              rev: s.rev,
              state: 'render',
              code,
              detail: detail.slice(0, 200),
              now: t2,
            })
          ) {
            counters.renderFailed++;
            pushed(s.push_id, false, `${tag?.hardware_id ?? s.tag_id}: ${detail}`);
            const log = code === 'renderError' || s.request_id !== null;
            await settled(
              trx,
              { ...s, kind: 'image', hardware_id: tag?.hardware_id, attempt: 0 },
              false,
              log ? { result: 'failed', code } : undefined,
            );
          }
          continue;
        }
        const skip = !Number(s.force) && tag.shown_ver === x.hash.slice(0, 16);
        if (
          await repo.slotRendered(trx, {
            id: s.id,
            rev: s.rev,
            tagId: tag.id,
            hash: x.hash,
            size: x.size,
            skip,
            now: t2,
            renderKey: keys.get(tag.id) ?? null,
          })
        ) {
          if (reused.has(tag.id)) counters.renderReused++;
          else counters.rendered++;
          pushed(s.push_id, true);
          if (skip) {
            counters.skipped++;
            await settled(trx, { ...s, kind: 'image', hardware_id: tag.hardware_id, hash: x.hash, attempt: 0 }, true, {
              result: 'skipped',
              code: 'skipped',
            });
          } else tagChanged(s.tenant_id, s.store_id, tag.id);
        }
      }
      for (const [id, p] of pushes) {
        await addToPush(trx, id, {
          rendered: p.rendered,
          failed: p.failed,
          ...(p.exception ? { exception: p.exception } : {}),
        });
      }
      // A push whose labels are all rendered (or failed) is finished now.
      await closeRenderedPushes(trx, [...pushes.keys()], t2);
    });
  }

  // -------------------------------------------------------------------------------------------
  // Dispatcher

  const imageCache = new Map<string, Uint8Array>();
  async function imageBytes(tenantId: number, hash: string): Promise<Uint8Array | null> {
    const key = `${tenantId}:${hash}`;
    const hit = imageCache.get(key);
    if (hit) return hit;
    const bytes = await o.render.loadImage(db, tenantId, hash);
    if (bytes) {
      if (imageCache.size > 2000) imageCache.delete(imageCache.keys().next().value as string);
      imageCache.set(key, bytes);
    }
    return bytes;
  }

  /**
   * Service rate per station, tags/s: what its radio would serve when busy all the time, from its
   * heartbeats (`svcPerS` served over `busyPct` of the airtime), smoothed; the profile's estimate
   * until a heartbeat of a busy enough radio (≥ 20 %) says otherwise — an idle radio serves
   * little and says nothing about what it could.
   */
  const measured = new Map<number, number>();
  function onHeartbeat(station: StationRef, m: HeartbeatMsg) {
    const { busyPct, svcPerS } = m.radio;
    if (busyPct < 20 || svcPerS <= 0) return;
    const capacity = Math.min(200, Math.max(0.5, (svcPerS * 100) / busyPct));
    const prev = measured.get(station.id);
    measured.set(station.id, prev === undefined ? capacity : 0.7 * prev + 0.3 * capacity);
  }
  function windowOf(stationId: number) {
    const caps = stations.get(stationId)?.caps ?? DEFAULT_CAPS;
    const svcPerS = measured.get(stationId) ?? SVC_PER_S;
    const window = windowSize({ queue: caps.queue, queueBytes: caps.queueBytes, avgBytes: 1300, wakeS: 40, svcPerS });
    return { svcPerS, window };
  }

  async function dispatch(): Promise<boolean> {
    const t = now();
    let any = false;
    for (const st of await repo.stationsWithWork(db, t)) {
      if (o.claimStation && !(await o.claimStation(st.id))) continue;
      const caps = stations.get(st.id)?.caps ?? DEFAULT_CAPS;
      const inflight = await repo.inflightOf(db, st.id);
      const { window, svcPerS } = windowOf(st.id);
      const free = Math.min(window - inflight, 256);
      if (free <= 0) continue;
      const due = await repo.dueForStation(db, st.id, t, free);
      const sent: Array<{ slot: repo.DueSlot; ttl: number }> = [];
      await db.transaction().execute(async (trx) => {
        for (const [i, slot] of due.entries()) {
          if (!caps.kinds.includes(slot.kind)) {
            // The station cannot do it at all (not in its caps.kinds): final, not left queued for ever.
            if (
              await repo.finish(trx, {
                id: slot.id,
                rev: slot.rev,
                from: ['queued'],
                state: 'failed',
                code: 'unsupported',
                now: t,
              })
            ) {
              await settled(
                trx,
                { ...slot, store_id: st.store_id, tag_id: slot.tag_id, request_id: slot.request_id },
                false,
                {
                  result: 'failed',
                  code: 'unsupported',
                  stationSn: st.sn,
                },
              );
            }
            continue;
          }
          const ttl = ttlS(slot.wake_s, inflight + i, svcPerS);
          if (
            await repo.markSent(trx, {
              id: slot.id,
              rev: slot.rev,
              stationId: st.id,
              now: t,
              ackDeadline: t + ACK_MS,
              ttlS: ttl,
            })
          ) {
            sent.push({ slot, ttl });
          }
        }
      });
      if (sent.length === 0) continue;
      any = true;
      const jobs: Job[] = [];
      for (const { slot, ttl } of sent) {
        const job = await toJob(slot, ttl, caps);
        if (job) jobs.push(job);
      }
      const key: StationKey = { tenantId: st.tenant_id, sn: st.sn };
      for (const payload of encodeJobMessages(jobs)) {
        await port.publish(topics.down(key, 'jobs'), payload, { qos: 1 });
      }
      counters.jobsSent += jobs.length;
    }
    return any;
  }

  async function toJob(slot: repo.DueSlot, ttl: number, caps: StationCaps): Promise<Job | null> {
    const base = {
      id: jobId(slot.id),
      rev: slot.rev,
      att: Number(slot.attempt) + 1,
      prio: Math.min(3, Math.max(0, slot.prio)) as 0 | 1 | 2 | 3,
      ttlS: ttl,
    };
    const tag = slot.hardware_id ?? '';
    switch (slot.kind) {
      case 'image': {
        if (!slot.hash || !slot.size) return null;
        const image: { hash: string; ver: string; size: number; data?: string } = {
          hash: slot.hash,
          ver: slot.hash.slice(0, 16),
          size: Number(slot.size),
        };
        if (image.size <= caps.inlineMax) {
          const bytes = await imageBytes(slot.tenant_id, slot.hash);
          if (bytes) image.data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
        }
        return { ...base, kind: 'image', tag, ...(Number(slot.force) ? { force: true } : {}), image };
      }
      case 'led':
        return { ...base, kind: 'led', tag, led: JSON.parse(slot.payload) };
      case 'ping':
        return { ...base, kind: 'ping', tag, ...(slot.payload ? { led: JSON.parse(slot.payload) } : {}) };
      case 'rollcall':
        return { ...base, kind: 'rollcall' };
      default:
        return null;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Pump: render and dispatch until neither finds work

  function kick() {
    if (closed) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = (async () => {
      // The next batch, claimed and rendering while the current one is written and dispatched.
      let next: Claimed | null = null;
      try {
        do {
          again = false;
          let worked = true;
          while (worked && !closed) {
            // A burst starts with a small batch, written and dispatched before anything else so
            // its jobs leave at once; after it, each batch is written while the next one renders.
            const starting: boolean = next === null;
            const current: Claimed | null = next ?? (await claimBatch(Math.min(FIRST_BATCH, batch)));
            next = current && !starting && !closed ? await claimBatch(batch) : null;
            if (current) await storeBatch(current);
            const dispatched = await dispatch();
            flushNotices();
            if (current && starting && !closed) next = await claimBatch(batch);
            worked = current !== null || dispatched;
          }
        } while (again && !closed);
      } catch (err) {
        fail(err, 'task pump');
      } finally {
        // A batch claimed ahead is written still (else its slots wait for their lease to end).
        if (next) await storeBatch(next).catch((err) => fail(err, 'task pump'));
        pumping = null;
      }
    })();
  }

  // -------------------------------------------------------------------------------------------
  // Inbound

  const mine = (slot: repo.SlotRow | undefined, station: StationRef) =>
    slot !== undefined && slot.tenant_id === station.tenant_id && slot.station_id === station.id;

  async function retryOrFail(
    trx: Kysely<Database>,
    slot: repo.SlotRow,
    code: string,
    once: boolean,
    t: number,
    stationSn: string | null,
  ) {
    const attempts = Number(slot.attempt);
    if (attempts >= (once ? 2 : MAX_ATTEMPTS)) {
      if (
        await repo.finish(trx, { id: slot.id, rev: slot.rev, from: ACTIVE_AT_STATION, state: 'failed', code, now: t })
      ) {
        await settled(trx, slot, false, { result: 'failed', code, stationSn });
      }
      return;
    }
    const wait = backoffMs(attempts, random(), o.backoffScale ?? 1);
    if (await repo.requeue(trx, { id: slot.id, rev: slot.rev, from: ACTIVE_AT_STATION, notBefore: t + wait, code })) {
      counters.resent++;
    }
  }

  async function onAck(station: StationRef, m: AckMsg) {
    const t = now();
    const slots = new Map(
      (
        await repo.slotsByIds(
          db,
          m.jobs.flatMap((j) => slotId(j.id) ?? []),
        )
      ).map((s) => [s.id, s]),
    );
    await db.transaction().execute(async (trx) => {
      for (const a of m.jobs) {
        const slot = slots.get(slotId(a.id) ?? 0);
        if (!slot || !mine(slot, station) || slot.rev !== a.rev) continue;
        counters.acks++;
        if (a.ok) {
          const ttl = Number(slot.ttl_s ?? 600);
          await repo.markAccepted(trx, slot.id, slot.rev, t, t + ttl * 1000 + DONE_SLACK_MS);
        } else if (a.code === 'full') {
          await repo.requeue(trx, { id: slot.id, rev: slot.rev, from: ['sent'], notBefore: t + 5000 });
        } else if (a.code !== 'stale') {
          if (
            await repo.finish(trx, {
              id: slot.id,
              rev: slot.rev,
              from: ['sent'],
              state: 'failed',
              code: a.code ?? 'invalid',
              now: t,
            })
          ) {
            await settled(trx, slot, false, { result: 'failed', code: a.code ?? 'invalid', stationSn: station.sn });
          }
        }
      }
    });
    flushNotices();
    kick();
  }

  /** Roll-call entries already counted (a station resends its outbox until resack). */
  const counted = new Set<string>();

  async function onResult(station: StationRef, m: ResultMsg) {
    const t = now();
    const slots = new Map(
      (
        await repo.slotsByIds(
          db,
          m.results.flatMap((r) => slotId(r.id) ?? []),
        )
      ).map((s) => [s.id, s]),
    );
    const rollTags = new Map(
      (
        await repo.tagsByHardware(
          db,
          station.tenant_id,
          m.results.flatMap((r) => (r.tag && slots.get(slotId(r.id) ?? 0)?.kind === 'rollcall' ? [r.tag] : [])),
        )
      ).map((x) => [x.hardware_id, x]),
    );
    const finishedRollCalls = new Set<number>();
    await db.transaction().execute(async (trx) => {
      for (const r of m.results) {
        const slot = slots.get(slotId(r.id) ?? 0);
        if (!slot || slot.tenant_id !== station.tenant_id) continue;
        counters.results++;
        // The tag shows this picture whatever became of the slot since (a newer rev, say).
        if (slot.kind === 'image' && slot.tag_id !== null && (r.code === 'ok' || r.code === 'skipped') && r.ver) {
          const hash = slot.hash?.startsWith(r.ver) ? slot.hash : null;
          await repo.setShown(trx, { tagId: slot.tag_id, ver: r.ver, hash, now: t, seenAt: t });
          tagChanged(slot.tenant_id, slot.store_id, slot.tag_id);
        }
        if (slot.kind === 'rollcall') {
          const tag = r.tag ? rollTags.get(r.tag) : undefined;
          const key = `${slot.id}:${r.rev}:${r.tag ?? ''}`;
          if (tag && slot.request_id !== null && r.rev === slot.rev && mine(slot, station) && !counted.has(key)) {
            if (counted.size > 100_000) counted.clear();
            counted.add(key);
            const row = await outbox.countRequest(trx, slot.request_id, r.present ? 1 : 0, r.present ? 0 : 1, t);
            if (row) progress.set(row.id, row);
          }
          if (
            r.rev === slot.rev &&
            (await repo.finish(trx, {
              id: slot.id,
              rev: slot.rev,
              from: ACTIVE_AT_STATION,
              state: 'done',
              code: 'ok',
              now: t,
            }))
          ) {
            if (slot.request_id !== null) finishedRollCalls.add(slot.request_id);
          }
          continue;
        }
        if (r.rev < slot.rev && slot.tag_id !== null && slot.hardware_id) {
          // A superseded revision ended at the station: its own tag-log row (the slot moved on).
          await appendTagLog(trx, [
            {
              tenantId: slot.tenant_id,
              storeId: slot.store_id,
              tagId: slot.tag_id,
              hardwareId: slot.hardware_id,
              requestId: null,
              kind: slot.kind === 'image' ? 'refresh' : slot.kind,
              rev: r.rev,
              result: r.code === 'ok' || r.code === 'skipped' ? r.code : 'replaced',
              code: r.code === 'ok' ? null : r.code,
              stationSn: station.sn,
              attempts: r.tries ?? 1,
              finishedAt: t,
              airMs: r.airMs ?? null,
              rssi: r.rssi ?? null,
            },
          ]);
        }
        if (r.rev !== slot.rev || !mine(slot, station)) continue;
        // A roll-call ping that did not reach the tag says "absent": asking again is not the answer.
        const handling = slot.kind === 'ping' && handlingOf(r.code) !== 'done' ? 'final' : handlingOf(r.code);
        if (handling === 'done' || handling === 'final' || handling === 'cancelled') {
          const state = handling === 'done' ? 'done' : handling === 'cancelled' ? 'cancelled' : 'failed';
          if (
            await repo.finish(trx, {
              id: slot.id,
              rev: slot.rev,
              from: ACTIVE_AT_STATION,
              state,
              code: r.code,
              detail: r.detail ?? null,
              now: t,
              // Not tried again at every report: only once the battery is reported better (reopenStale).
              holdBattery: r.code === 'lowBattery',
            })
          ) {
            const result: TagLogResult =
              handling === 'done'
                ? r.code === 'skipped'
                  ? 'skipped'
                  : 'ok'
                : handling === 'cancelled'
                  ? 'cancelled'
                  : 'failed';
            await settled(trx, slot, handling === 'done', {
              result,
              code: r.code,
              stationSn: station.sn,
              airMs: r.airMs,
              rssi: r.rssi,
            });
          }
        } else {
          await retryOrFail(trx, slot, r.code, handling === 'retryOnce', t, station.sn);
        }
      }
    });
    // Results are stored: the station may drop them from its outbox.
    const ids: JobRef[] = m.results.map((r) => [r.id, r.rev]);
    await port.publish(
      topics.down({ tenantId: station.tenant_id, sn: station.sn }, 'resack'),
      encodeMessage('resack', { v: 1, ids }),
      {
        qos: 1,
      },
    );
    for (const requestId of finishedRollCalls) await closeRollCall(requestId);
    flushNotices();
    kick();
  }

  /** Once every station answered a roll call, the tags none of them listed count as absent. */
  async function closeRollCall(requestId: number) {
    const open = await repo.activeRollCalls(db, requestId);
    if (open > 0) return;
    const row = await repo.findRequestById(db, requestId);
    if (!row || row.status === 'done') return;
    const missing = Number(row.total) - Number(row.done) - Number(row.failed);
    const updated = await outbox.countRequest(db, requestId, 0, Math.max(0, missing), now());
    if (updated) progress.set(updated.id, updated);
  }

  async function onHello(station: StationRef, m: HelloMsg) {
    stations.set(station.id, { caps: m.caps });
    const t = now();
    const held = new Map<number, number>();
    const unknown: JobRef[] = [];
    for (const [id, rev] of m.queue) {
      const n = slotId(id);
      if (n === null) unknown.push([id, rev]);
      else held.set(n, rev);
    }
    const cancel: JobRef[] = [...unknown];
    await db.transaction().execute(async (trx) => {
      for (const a of await repo.sentToStation(trx, station.id)) {
        const h = held.get(a.id);
        if (h === a.rev) {
          if (a.state === 'sent') {
            const ttl = Number(a.ttl_s ?? 600);
            await repo.markAccepted(trx, a.id, a.rev, t, t + ttl * 1000 + DONE_SLACK_MS);
          }
          held.delete(a.id);
        } else if (await repo.requeue(trx, { id: a.id, rev: a.rev, from: ACTIVE_AT_STATION, notBefore: t })) {
          counters.resent++;
        }
      }
      // What the station holds that no unfinished task of it wants any more.
      const rows = new Map((await repo.slotRevs(trx, [...held.keys()])).map((r) => [r.id, r]));
      for (const [id, rev] of held) {
        const r = rows.get(id);
        // Still wanted at this rev or a newer one: the next send replaces or repeats it (stations
        // dedupe by (id, rev)); cancelling it would end a job the server is about to send again.
        const live =
          r && r.tenant_id === station.tenant_id && r.rev >= rev && !['done', 'failed', 'cancelled'].includes(r.state);
        if (!live) cancel.push([jobId(id), rev]);
      }
    });
    if (cancel.length) {
      const key = { tenantId: station.tenant_id, sn: station.sn };
      for (let i = 0; i < cancel.length; i += LIMITS.maxRefsPerMessage) {
        await port.publish(
          topics.down(key, 'cancel'),
          encodeMessage('cancel', { v: 1, ids: cancel.slice(i, i + LIMITS.maxRefsPerMessage), reason: 'unknown' }),
          { qos: 1 },
        );
      }
    }
    kick();
  }

  /**
   * Tags now routed to another station: their jobs at the old one are taken back (queued again,
   * same revision, for the new route) and the old station is told to drop them. A transfer it has
   * already started finishes; its result no longer belongs to the slot, but the tag's shown
   * picture is still recorded from it, and the new station then skips the tag by its hash.
   */
  async function reroute(tagIds: readonly number[]) {
    if (tagIds.length === 0) return;
    const t = now();
    const cancels = new Map<number, { tenantId: number; sn: string; ids: JobRef[] }>();
    for (let i = 0; i < tagIds.length; i += 500) {
      for (const r of await repo.reroutedSlots(db, tagIds.slice(i, i + 500))) {
        if (!(await repo.requeue(db, { id: r.id, rev: r.rev, from: ACTIVE_AT_STATION, notBefore: t }))) continue;
        counters.rerouted++;
        const stationId = r.station_id as number;
        const c = cancels.get(stationId) ?? { tenantId: r.tenant_id, sn: r.sn, ids: [] };
        c.ids.push([jobId(r.id), r.rev]);
        cancels.set(stationId, c);
      }
    }
    for (const c of cancels.values()) {
      for (let i = 0; i < c.ids.length; i += LIMITS.maxRefsPerMessage) {
        await port
          .publish(
            topics.down({ tenantId: c.tenantId, sn: c.sn }, 'cancel'),
            encodeMessage('cancel', { v: 1, ids: c.ids.slice(i, i + LIMITS.maxRefsPerMessage), reason: 'moved' }),
            { qos: 1 },
          )
          .catch((err) => fail(err, 'cancel at the old station'));
      }
    }
  }

  async function onBlob(station: StationRef, m: BlobRequestMsg) {
    if (!(await repo.stationNeedsHash(db, station.id, station.tenant_id, m.hash))) {
      counters.blobsRefused++;
      return;
    }
    const bytes = await imageBytes(station.tenant_id, m.hash);
    if (!bytes || m.offset >= bytes.length) {
      counters.blobsRefused++;
      return;
    }
    counters.blobsServed++;
    await port.publish(
      topics.blobChunk({ tenantId: station.tenant_id, sn: station.sn }, m.hash, m.offset),
      Buffer.from(bytes.subarray(m.offset, m.offset + m.length)),
      { qos: 1 },
    );
  }

  // -------------------------------------------------------------------------------------------
  // Deadlines and reconciler

  async function sweep() {
    const t = now();
    for (const s of await repo.overdueAcks(db, t)) {
      if (await repo.requeue(db, { id: s.id, rev: s.rev, from: ['sent'], notBefore: t })) counters.resent++;
    }
    const late = await repo.slotsByIds(
      db,
      (await repo.overdueResults(db, t)).map((s) => s.id),
    );
    if (late.length) {
      await db.transaction().execute(async (trx) => {
        for (const slot of late) {
          if (slot.state !== 'accepted') continue;
          if (slot.kind === 'rollcall') {
            if (
              await repo.finish(trx, {
                id: slot.id,
                rev: slot.rev,
                from: ['accepted'],
                state: 'failed',
                code: 'timeout',
                now: t,
              })
            ) {
              if (slot.request_id !== null) await closeRollCallIn(trx, slot.request_id);
            }
            continue;
          }
          await retryOrFail(trx, slot, 'timeout', false, t, null);
        }
      });
    }
  }

  async function closeRollCallIn(trx: Kysely<Database>, requestId: number) {
    if ((await repo.activeRollCalls(trx, requestId)) > 0) return;
    const row = await repo.findRequestById(trx, requestId);
    if (!row || row.status === 'done') return;
    const missing = Number(row.total) - Number(row.done) - Number(row.failed);
    const updated = await outbox.countRequest(trx, requestId, 0, Math.max(0, missing), now());
    if (updated) progress.set(updated.id, updated);
  }

  async function reconcile(tagIds?: readonly number[]): Promise<number> {
    const reopened = await repo.reopenStale(db, now(), tagIds);
    counters.reopened += reopened.length;
    if (reopened.length) kick();
    return reopened.length;
  }

  let unsubscribe: (() => void) | null = null;
  return {
    counters,
    kick,
    reconcile,
    onHello,
    onAck,
    onResult,
    onBlob,
    onHeartbeat,
    windowOf,
    async onTagsReported(tagIds) {
      // A report whose tags all show what they should brings no work: no pump (a claim and a
      // stations-with-work query per report cost 3 % of the gateway's CPU at 1,000 stations).
      if (tagIds.length === 0) return;
      await reroute(tagIds);
      await reconcile(tagIds);
      kick();
    },
    async start() {
      unsubscribe = onTasksChanged(kick);
      lastReconcile = now();
      await reconcile();
      kick();
    },
    async tick() {
      if (closed) return;
      await sweep();
      if (now() - lastReconcile >= reconcileMs) {
        lastReconcile = now();
        await reconcile();
        // A push whose labels went away unrendered (tags deleted) has nothing left to finish it.
        await closeIdlePushes(db, now());
      }
      if (o.render.collect && now() - lastCollect >= collectMs) {
        lastCollect = now();
        try {
          counters.imagesCollected += await o.render.collect(db, now());
        } catch (err) {
          fail(err, 'image collection');
        }
      }
      flushNotices();
      kick();
    },
    async idle() {
      while (pumping) await pumping;
    },
    async close() {
      closed = true;
      unsubscribe?.();
      while (pumping) await pumping;
      await o.render.close();
    },
  };
}
