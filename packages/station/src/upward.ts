import {
  DEFAULTS,
  type Job,
  LIMITS,
  type Message,
  type MessageInput,
  type MessageName,
  type ResultCode,
  type ResultEntry,
  type StationKey,
} from '@esl/contract/protocol';
import type { BlobPulls } from './blobs';
import type { CmdSessions, StationDriver } from './driver';
import { imageMatches as imageBlobMatches } from './images';
import { acceptJobs, type HeldJob } from './jobs';
import type { LinkStats } from './options';
import type { Outbox } from './outbox';
import type { TagTable } from './tag-table';
import type { Clock } from './time';

/*
 * The protocol's answers that need no connection state of their own (docs/PROTOCOL.md 5): hello,
 * jobs and acks, cancels, roll calls, blob chunks, heartbeats, the TTL sweep. StationLink calls
 * them with itself.
 */

/** What these functions use of a StationLink. */
export interface LinkCore {
  readonly key: StationKey;
  readonly connId: string;
  readonly boot: number;
  cfgRev: number;
  readonly queueSize: number;
  readonly queue: Map<string, HeldJob>;
  readonly results: Outbox;
  readonly heard: TagTable;
  readonly pulls: BlobPulls;
  readonly cmdSessions: CmdSessions;
  readonly stats: LinkStats;
  readonly clock: Clock;
  readonly driver: StationDriver | null;
  readonly isConnected: boolean;
  readonly onJobsHook?: (station: StationKey, jobs: readonly Job[]) => void;
  localNow(): number;
  serverNow(): number;
  uptimeS(): number;
  publish<K extends MessageName>(name: K, body: MessageInput<K>): Promise<void>;
  result(job: Job, code: ResultCode, extra: Partial<ResultEntry>): void;
  requestChunks(): void;
}

export function requireDriver(link: LinkCore): StationDriver {
  if (!link.driver) throw new Error(`${link.key.tenantId}.${link.key.sn}: no station driver attached`);
  return link.driver;
}

export function hello(link: LinkCore): MessageInput<'hello'> {
  const d = requireDriver(link).hello();
  return {
    v: 1,
    connId: link.connId,
    boot: link.boot,
    model: d.model,
    fw: d.fw,
    radio: d.radio,
    caps: {
      queue: link.queueSize,
      queueBytes: 4 * 1024 * 1024,
      inlineMax: DEFAULTS.inlineMax,
      chunk: DEFAULTS.chunk,
      fwConcurrent: 1,
      kinds: [...requireDriver(link).kinds()],
    },
    queue: [...link.queue.values()].map((h) => [h.job.id, h.job.rev] as [string, number]),
    outbox: link.results.size,
    net: d.net,
    cfgRev: link.cfgRev,
    time: link.localNow(),
  };
}

export function onJobs(link: LinkCore, m: Message<'jobs'>): void {
  link.onJobsHook?.(link.key, m.jobs);
  const driver = requireDriver(link);
  const acks = acceptJobs(
    {
      queue: link.queue,
      kinds: requireDriver(link).kinds(),
      queueSize: link.queueSize,
      now: link.clock.now(),
      replaced: (job) => link.result(job, 'replaced', {}),
      queued: (held) => {
        const job = held.job;
        if ((job.kind === 'image' || job.kind === 'timed') && held.bytes === null) {
          link.pulls.start(job.image.hash, job.image.size);
          link.requestChunks();
        }
        if (job.kind === 'rollcall') rollCall(link, job);
        driver.queued?.(held);
      },
    },
    m.jobs,
  );
  for (const a of acks) a.ok ? link.stats.acks.ok++ : link.stats.acks.refused++;
  for (let i = 0; i < acks.length; i += LIMITS.maxAcksPerMessage) {
    void link.publish('ack', { v: 1, jobs: acks.slice(i, i + LIMITS.maxAcksPerMessage) }).catch(() => {});
  }
  driver.work?.();
}

export function onCancel(link: LinkCore, m: Message<'cancel'>): void {
  for (const [id, rev] of m.ids) {
    const held = link.queue.get(id);
    // A timed image the tag already holds (§5.14): the driver withdraws it from the tag.
    if (!held && link.driver?.withdraw?.(id, rev)) continue;
    if (!held || held.job.rev > rev || held.running) continue;
    link.queue.delete(id);
    link.result(held.job, 'cancelled', {});
  }
}

/** Answers from the tag table, without airtime: present = heard within twice its wake interval. */
export function rollCall(link: LinkCore, job: Job): void {
  const now = link.serverNow();
  link.queue.delete(job.id);
  const ids = link.driver?.rollCallTags?.() ?? [];
  if (ids.length === 0) link.result(job, 'ok', {});
  for (const tag of ids) link.result(job, 'ok', { tag, present: link.heard.present(tag, now) });
}

export function onBlobChunk(link: LinkCore, hash: string, offset: number, payload: Buffer): void {
  const driver = link.driver;
  const raw = new Uint8Array(payload);
  const bytes = driver?.chunk ? driver.chunk(offset, raw) : raw;
  const blob = link.pulls.receive(hash, offset, bytes);
  if (driver?.blob?.(hash, blob)) return;
  if (blob) {
    const good = imageBlobMatches(blob, hash);
    for (const held of [...link.queue.values()]) {
      if ((held.job.kind !== 'image' && held.job.kind !== 'timed') || held.job.image.hash !== hash) continue;
      if (good) {
        held.bytes = blob;
      } else {
        link.queue.delete(held.job.id);
        link.result(held.job, 'badBlob', {});
      }
    }
    if (good) driver?.work?.();
  }
  link.requestChunks();
}

export function sendHeartbeat(link: LinkCore): void {
  if (!link.isConnected) return;
  const d = requireDriver(link).heartbeat();
  const queueBytes = [...link.queue.values()].reduce((s, h) => s + (h.bytes?.length ?? 0), 0);
  void link
    .publish('heartbeat', {
      v: 1,
      at: link.localNow(),
      uptimeS: link.uptimeS(),
      ...d,
      queue: { jobs: link.queue.size, bytes: queueBytes },
      tagsHeard: link.heard.countPresent(link.serverNow()),
      cfgRev: link.cfgRev,
    })
    .catch(() => {});
}

/** Jobs whose TTL passed end as `timeout`, or `unknownTag` when the tag was never heard. */
export function sweep(link: LinkCore): void {
  const now = link.clock.now();
  for (const held of [...link.queue.values()]) {
    if (!held.running && held.deadline <= now) {
      link.queue.delete(held.job.id);
      const tag = 'tag' in held.job ? held.job.tag : undefined;
      const code = tag !== undefined && !link.heard.has(tag) ? 'unknownTag' : 'timeout';
      link.result(held.job, code, { tries: held.tries });
    }
  }
  for (const [id, s] of link.cmdSessions) if (s.expiresAt < now) link.cmdSessions.delete(id);
}

/**
 * Tags that changed since they were last reported, plus tags heard again whose last report is
 * older than twice their wake interval; every tag heard recently at least every 10 minutes (`full`).
 */
export function sendReport(link: LinkCore, state: { seq: number; lastFull: number }): void {
  if (!link.isConnected) return;
  const now = link.clock.now();
  const full = now - state.lastFull >= DEFAULTS.fullReportS * 1000;
  const due = link.heard.takeDue(now, link.serverNow(), full);
  if (full) state.lastFull = now;
  if (due.length === 0 && !full) return;
  for (let i = 0; i < Math.max(1, due.length); i += LIMITS.maxTagsPerReport) {
    const tags = due.slice(i, i + LIMITS.maxTagsPerReport);
    void link.publish('tags', { v: 1, seq: state.seq++, at: link.serverNow(), full, tags }).catch(() => {});
  }
}
