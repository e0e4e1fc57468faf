import type {
  AckMsg,
  BlobRequestMsg,
  HeartbeatMsg,
  HelloMsg,
  ProgressMsg,
  ResultMsg,
  TagsMsg,
} from '@esl/contract/protocol';

/*
 * The uplink: the gateway receives every station message (presence, heartbeats, tag reports,
 * config and command answers are its own) and hands the messages about jobs to the consumer that
 * owns the job's kind. Two consumers today, the task engine (labels, LED, roll call) and the
 * firmware engine (upgrades); a consumer is registered by its kind, and the job ids it issues say
 * that kind through `jobKindOf` — the one place that knows how ids of different kinds differ.
 */

/** The kinds of work a station carries, each with one consumer. */
export type JobKind = 'task' | 'firmware' | 'timed';

/**
 * A firmware job's id: `zf` and an upgrade slot's id (a positive safe integer) in 14 base-36
 * digits; a task job's id is its slot id in base 36 (never that long). Anything else is the task
 * engine's to judge (it cancels what it does not know).
 */
const FIRMWARE_ID = /^zf[0-9a-z]{14}$/;

/** A timed image's job id (docs/SCHEDULE.md): `zt` and its timed label's id in 14 base-36 digits. */
const TIMED_ID = /^zt[0-9a-z]{14}$/;

/** Which kind of work a job id belongs to. */
export function jobKindOf(id: string): JobKind {
  const kind = FIRMWARE_ID.test(id) ? 'firmware' : TIMED_ID.test(id) ? 'timed' : null;
  if (!kind) return 'task';
  const n = Number.parseInt(id.slice(2), 36);
  return Number.isSafeInteger(n) && n > 0 ? kind : 'task';
}

/**
 * The order consumers hear a station's news (hello, tag reports): the task engine first, so the
 * firmware engine's dispatch, which holds tag upgrades while label work waits, sees the label work
 * the hello re-queued or the report re-opened.
 */
export const NEWS_ORDER: readonly JobKind[] = ['task', 'firmware', 'timed'];

/**
 * The order job messages (ack, result, progress) are handed out, each consumer its own kind's part,
 * and blob requests offered until one consumer serves it: the firmware engine first (one indexed
 * look at its open upgrades; the task engine counts a hash it does not serve as refused).
 */
export const JOB_ORDER: readonly JobKind[] = ['firmware', 'timed', 'task'];

/** `consumers` in the order of `kinds` (a kind with no consumer is left out). */
export function inOrder<C extends { readonly kind: JobKind }>(consumers: readonly C[], kinds: readonly JobKind[]): C[] {
  return kinds.flatMap((k) => consumers.filter((c) => c.kind === k));
}

/** The station a message came from, as the gateway identified it at login. */
export interface LinkStation {
  id: number;
  tenant_id: number;
  store_id: number | null;
  sn: string;
}

/** What a consumer of the uplink is handed: only the jobs, results and queue entries of its own kind. */
export interface JobConsumer<S extends LinkStation = LinkStation> {
  readonly kind: JobKind;
  /** A station (re)connected: `m.queue` holds only this kind's jobs. */
  onHello(station: S, m: HelloMsg): Promise<void>;
  onAck(station: S, m: AckMsg): Promise<void>;
  onResult(station: S, m: ResultMsg): Promise<void>;
  onProgress?(station: S, m: ProgressMsg): Promise<void>;
  /** Serves a blob chunk when the hash is one of this consumer's; false lets the next consumer try. */
  onBlob(station: S, m: BlobRequestMsg): Promise<boolean>;
  /** A tag report (firmware versions, for instance) after the gateway stored it. */
  onTags?(station: S, m: TagsMsg): Promise<void>;
  /** The tags whose reports were just stored. */
  onTagsReported?(tagIds: readonly number[]): Promise<void>;
  /** The station's radio figures. */
  onHeartbeat?(station: S, m: HeartbeatMsg): void;
}
