import { DEFAULTS, type StationCaps } from '@esl/contract/protocol';
import type { Kysely, Transaction } from 'kysely';
import type { Database, TaskState } from '../../infra/db/schema';
import type { Notices } from '../../infra/notice/notices';
import type { RenderedImage, RenderJob, RenderOutcome } from '../../infra/render';
import type * as outbox from '../../outbox/slots/repository';
import type { LinkStation } from '../link/consumers';
import type { StationLink } from '../link/station-link';

/*
 * What the stages of the task engine share (docs/DELIVERY-ENGINE.md): its options, its counters
 * and one small state object — the stations' capabilities and measured rates, the notices
 * gathered for the next flush, the pump's flags and the timers of the periodic work. engine.ts
 * makes it and hands it to each stage (render-stage.ts, dispatch.ts, station-messages.ts,
 * results.ts, sweeps.ts, pump.ts, settle.ts).
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
  /** The downlink: jobs, cancels, resacks and blob chunks go to the stations through it. */
  link: StationLink;
  notices: Notices;
  now: () => number;
  render: RenderBackend;
  /** Name of this instance's leases. */
  owner?: string;
  /** Reconciler period, ms (60 s). */
  reconcileMs?: number;
  /** Period of the image garbage collection, ms (1 h; the first runs at the first tick). */
  collectMs?: number;
  /** Period of the proof-of-price watch (`price.wrong` callbacks, docs/PROOF.md), ms (15 s). */
  priceWatchMs?: number;
  /** How often the problems sweep compares what is wrong now with what it last found (docs/PROBLEMS.md). */
  problemWatchMs?: number;
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
export interface StationInfo {
  caps: StationCaps;
}

/** A station as the gateway found it. */
export type StationRef = LinkStation;

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
  /** `price.wrong` callback events the watch wrote. */
  pricesWrong: number;
  /** Problems the sweep found starting and ending (docs/PROBLEMS.md). */
  problemsStarted: number;
  problemsEnded: number;
  /** Jobs taken back from a station because their tag is now routed to another. */
  rerouted: number;
  blobsServed: number;
  blobsRefused: number;
}

export const DEFAULT_CAPS: StationCaps = {
  queue: 256,
  queueBytes: 4 * 1024 * 1024,
  inlineMax: DEFAULTS.inlineMax,
  chunk: DEFAULTS.chunk,
  fwConcurrent: 1,
  kinds: ['image', 'led', 'ping', 'rollcall'],
};
/** Estimated radio service rate of an `oepl-2g4` station, tags/s (DELIVERY.md §7). */
export const SVC_PER_S = 9.7;
export const ACTIVE_AT_STATION: readonly TaskState[] = ['sent', 'accepted'];

/** The state the stages share; one per engine. */
export interface EngineState {
  readonly o: EngineOptions;
  readonly db: Kysely<Database>;
  readonly link: StationLink;
  readonly now: () => number;
  readonly owner: string;
  readonly random: () => number;
  /** Slots per render claim. */
  readonly batch: number;
  readonly counters: EngineCounters;
  /** Capabilities of the stations that said hello to this process. */
  readonly stations: Map<number, StationInfo>;
  /** Measured service rate per station, tags/s (dispatch.ts, onHeartbeat). */
  readonly measured: Map<number, number>;
  /** Image bytes by `tenant:hash`, for inline jobs and blob pulls. */
  readonly imageCache: Map<string, Uint8Array>;
  /** Roll-call entries already counted (a station resends its outbox until resack). */
  readonly counted: Set<string>;
  /** Changed tags per tenant and store, gathered until the next flush (settle.ts). */
  readonly changedTags: Map<string, { tenantId: number; storeId: number; ids: Set<number> }>;
  /** Request progress gathered until the next flush, and when each request's last went out. */
  readonly progress: Map<number, outbox.RequestRow>;
  readonly progressSentAt: Map<number, number>;
  closed: boolean;
  /** The pump under way (pump.ts), and whether another round was asked for while it ran. */
  pumping: Promise<void> | null;
  again: boolean;
  lastReconcile: number;
  lastCollect: number;
  lastPriceWatch: number;
  lastProblemWatch: number;
  /** The store the problems sweep goes on from at the next tick (a sweep in steps), or null. */
  problemSweepFrom: number | null;
  fail(err: unknown, what: string): void;
}

export function createState(o: EngineOptions): EngineState {
  return {
    o,
    db: o.db,
    link: o.link,
    now: o.now,
    owner: o.owner ?? `srv-${process.pid}`,
    random: o.random ?? Math.random,
    batch: o.renderBatch ?? 512,
    counters: {
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
      pricesWrong: 0,
      problemsStarted: 0,
      problemsEnded: 0,
      rerouted: 0,
      blobsServed: 0,
      blobsRefused: 0,
    },
    stations: new Map(),
    measured: new Map(),
    imageCache: new Map(),
    counted: new Set(),
    changedTags: new Map(),
    progress: new Map(),
    progressSentAt: new Map(),
    closed: false,
    pumping: null,
    again: false,
    lastReconcile: Number.NEGATIVE_INFINITY,
    lastCollect: Number.NEGATIVE_INFINITY,
    lastPriceWatch: Number.NEGATIVE_INFINITY,
    lastProblemWatch: Number.NEGATIVE_INFINITY,
    problemSweepFrom: null,
    fail: (err, what) => o.onError?.(err, what),
  };
}
