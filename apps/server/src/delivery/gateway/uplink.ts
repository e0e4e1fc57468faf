import {
  type AckMsg,
  type BlobRequestMsg,
  type CmdOutputMsg,
  decodeMessage,
  type HeartbeatMsg,
  type HelloMsg,
  type MessageName,
  type ModelsMsg,
  messageForPath,
  type ProgressMsg,
  parseTopic,
  type ResultMsg,
  type StationKey,
  type StatusMsg,
  type TagsMsg,
  topics,
} from '@esl/contract/protocol';
import { isTransient, withRetry } from '../../infra/db/retry';
import { inOrder, JOB_ORDER, jobKindOf } from '../link/consumers';
import type { MqttMessage, MqttPort, Unsubscribe } from '../mqtt/port';
import type { ConfigAndCommands } from './control';
import type { GatewayCore } from './core';
import { onModels } from './models';
import * as repo from './repository';
import { onTagReport } from './tags/report';
import { thresholdsFromJson } from './tags/status';
import type { Presences } from './welcome';

/*
 * The uplink: the one place station messages come in. Each is checked (topic, size, schema), its
 * station looked up, and handled one after another per station: presence, tag reports, config and
 * command answers by the gateway's parts, job messages by the consumer of the job's kind.
 */

export interface UplinkOptions {
  port: MqttPort;
  /** Shared-subscription group on an external broker. */
  share?: string;
  /** Messages queued for one station before more are dropped. */
  maxPendingPerStation?: number;
  onError?: (err: unknown, what: string) => void;
  /** Waits between runs of a message that failed transiently (tests pass a quick one). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A failure of the database that passes: a lost deadlock or serialisation check (retry.ts), or a
 * connection the database closed or refused (a restart, a fail-over) — the next run may succeed.
 */
export function isPassing(err: unknown): boolean {
  if (isTransient(err)) return true;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return /^(08|57P0[1-3])/.test(code) || code === 'ECONNREFUSED' || code === 'ECONNRESET';
}

/**
 * Runs of one station message before it is given up: ~1 minute of jittered, doubling waits
 * (20 ms … 5 s). Handling is idempotent (QoS 1 delivers any message more than once), so a
 * message that failed half-way is handled again whole.
 */
export const MESSAGE_RETRY = { attempts: 16, baseMs: 20, maxMs: 5000 } as const;

export interface Uplink {
  /** Subscribes to what stations send (retained statuses arrive at once). */
  start(): Promise<void>;
  /** Resolves when every message received so far is handled. */
  idle(): Promise<void>;
  /** Unsubscribes; what was received is still handled (`idle`). */
  stop(): Promise<void>;
}

interface Handlers {
  presences: Presences;
  config: ConfigAndCommands;
}

export function stationUplink(core: GatewayCore, parts: Handlers, o: UplinkOptions): Uplink {
  const { port } = o;
  const maxPending = o.maxPendingPerStation ?? 1000;
  const chains = new Map<string, { tail: Promise<void>; pending: number }>();
  const unsubscribes: Unsubscribe[] = [];
  let closed = false;

  const receive = (m: MqttMessage) => {
    if (closed) return;
    const t = parseTopic(m.topic);
    if (!t || t.kind === 'down') return core.drop(null, 'badTopic');
    const name: MessageName | undefined = t.kind === 'status' ? 'status' : messageForPath(`up/${t.name}`);
    if (!name) return core.drop(`${t.tenantId}.${t.sn}`, 'badTopic');
    const key: StationKey = { tenantId: t.tenantId, sn: t.sn };
    const id = `${key.tenantId}.${key.sn}`;
    const chain = chains.get(id) ?? { tail: Promise.resolve(), pending: 0 };
    if (chain.pending >= maxPending) return core.drop(id, 'overload');
    chain.pending++;
    chains.set(id, chain);
    chain.tail = chain.tail
      .then(() =>
        // A transient database failure does not drop the message: it is handled again, after a
        // short wait, in its place in the station's order (docs/SERVER.md, "Deadlocks and retries").
        withRetry(() => handle(key, id, name, m), {
          ...MESSAGE_RETRY,
          retryable: isPassing,
          sleep: o.sleep,
          onRetry: () => core.counters.retried++,
        }),
      )
      .catch((err) => {
        core.counters.dropped.handlerError++;
        o.onError?.(err, `${name} from ${id}`);
      })
      .finally(() => {
        if (--chain.pending === 0 && chains.get(id) === chain) chains.delete(id);
      });
  };

  async function handle(key: StationKey, id: string, name: MessageName, m: MqttMessage): Promise<void> {
    const decoded = decodeMessage(name, m.payload);
    if (!decoded.ok) return core.drop(id, decoded.error);
    if (name === 'tags') {
      // The station and its store's thresholds in one statement (the uplink's busiest message).
      const reporting = await repo.findReportingStation(core.db, key);
      if (!reporting) return core.drop(id, 'unknownStation');
      const { store_params, ...station } = reporting;
      return onTagReport(core, id, station, decoded.message as TagsMsg, thresholdsFromJson(store_params));
    }
    const station = await repo.findStation(core.db, key);
    if (!station) return core.drop(id, 'unknownStation');
    switch (name) {
      case 'status':
        return parts.presences.onStatus(station, decoded.message as StatusMsg);
      case 'hello':
        return parts.presences.onHello(key, station, decoded.message as HelloMsg);
      case 'heartbeat':
        return parts.presences.onHeartbeat(station, decoded.message as HeartbeatMsg);
      case 'models':
        return onModels(core, station, decoded.message as ModelsMsg);
      case 'cmdOutput':
        return parts.config.onCmdOutput(station, decoded.message as CmdOutputMsg);
      case 'ack':
      case 'result':
      case 'progress':
      case 'blobRequest':
        return toConsumers(core, station, name, decoded.message);
      default:
        return;
    }
  }

  return {
    async start() {
      if (o.share && port.retained) {
        // Several server processes: live statuses too through the shared subscription (each handled
        // by one process), and the stations' retained last statuses read once at start.
        unsubscribes.push(
          await port.subscribe(topics.serverStatusFilter, receive, { qos: 1, share: o.share }),
          await port.subscribe(topics.serverUpFilter, receive, { qos: 1, share: o.share }),
        );
        await port.retained(topics.serverStatusFilter, receive);
        return;
      }
      unsubscribes.push(
        await port.subscribe(topics.serverStatusFilter, receive, { qos: 1 }),
        await port.subscribe(topics.serverUpFilter, receive, { qos: 1, share: o.share }),
      );
    },
    async idle() {
      while (chains.size > 0) await Promise.all([...chains.values()].map((c) => c.tail));
    },
    async stop() {
      closed = true;
      await Promise.all(unsubscribes.splice(0).map((u) => u().catch(() => {})));
    },
  };
}

/**
 * Job messages to the consumer of each job's kind (`jobKindOf`), each seeing only its own part;
 * a blob request to each consumer until one serves it.
 */
async function toConsumers(core: GatewayCore, station: repo.StationIdentity, name: MessageName, message: unknown) {
  const consumers = inOrder(core.consumers, JOB_ORDER);
  if (name === 'blobRequest') {
    for (const c of consumers) if (await c.onBlob(station, message as BlobRequestMsg)) return;
    return;
  }
  if (name === 'progress') {
    const m = message as ProgressMsg;
    return consumers.find((c) => c.kind === jobKindOf(m.id))?.onProgress?.(station, m);
  }
  if (name === 'ack') {
    const m = message as AckMsg;
    for (const c of consumers) {
      const jobs = m.jobs.filter((j) => jobKindOf(j.id) === c.kind);
      if (jobs.length) await c.onAck(station, { ...m, jobs });
    }
    return;
  }
  const m = message as ResultMsg;
  for (const c of consumers) {
    const results = m.results.filter((r) => jobKindOf(r.id) === c.kind);
    if (results.length) await c.onResult(station, { ...m, results });
  }
}
