import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Dialect } from '../db/database';
import type { Database } from '../db/schema';
import { claimLease, liveLeases, releaseLease } from './repository';

/*
 * Which server processes run on this database (docs/DEPLOY.md). Each process holds the lease
 * `process:{instance}` while it runs and renews it every few seconds; one killed -9 stops renewing
 * and its lease runs out. At start a process looks at the others and refuses to run where several
 * processes cannot: on SQLite (one file, one writer) or with the embedded broker (each process
 * would hold stations the others cannot reach).
 */

export type BrokerMode = 'embedded' | 'external' | 'none';

export interface MemberInfo {
  host: string;
  pid: number;
  broker: BrokerMode;
  dialect: Dialect;
  /** Worker processes behind it (WORKERS). */
  workers: number;
}

export const PROCESS_PREFIX = 'process:';
export const PROCESS_TTL_MS = 15_000;
const RENEW_MS = 5000;

/** Why this process may not run beside `others` (live members of the same database); null: it may. */
export function refusalReason(
  me: MemberInfo,
  others: readonly MemberInfo[],
  alive: (m: MemberInfo) => boolean = isAlive,
): string | null {
  const running = others.filter(alive);
  const first = running[0];
  if (!first) return null;
  const who = `${first.host} pid ${first.pid}${running.length > 1 ? ` and ${running.length - 1} more` : ''}`;
  if (me.dialect === 'sqlite')
    return `another server process (${who}) uses this SQLite database; several processes need PostgreSQL (DATABASE_URL=postgres://…)`;
  if (me.broker === 'embedded')
    return `another server process (${who}) uses this database; with several processes the stations need one external broker (MQTT_URL), not each process's embedded one`;
  const embedded = running.find((m) => m.broker === 'embedded');
  if (embedded)
    return `the server process on ${embedded.host} pid ${embedded.pid} runs the embedded station broker on this database; stop it or restart it with MQTT_URL first`;
  return null;
}

/** The refusal for WORKERS=n itself, before anything starts; null: allowed. */
export function workersRefusal(workers: number, dialect: Dialect, broker: BrokerMode): string | null {
  if (workers <= 1) return null;
  if (dialect !== 'postgres')
    return 'WORKERS > 1 needs PostgreSQL (DATABASE_URL=postgres://…): server processes share their state through it';
  if (broker === 'embedded')
    return 'WORKERS > 1 needs an external station broker (MQTT_URL, docs/DEPLOY.md): each worker would run an embedded broker of its own that the others cannot reach (or MQTT=off for no stations)';
  return null;
}

/**
 * A lease whose holder runs on this host but whose pid is gone was left by a process killed
 * before it could give it up: not alive, whatever its time says (a restart need not wait).
 */
function isAlive(m: MemberInfo): boolean {
  if (m.host !== hostname()) return true;
  if (m.pid === process.pid) return false;
  try {
    process.kill(m.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface Membership {
  readonly name: string;
  /** Gives the lease up (a clean stop): the others see this process gone at once. */
  leave(): Promise<void>;
}

export class ClusterRefusal extends Error {}

/** Registers this process, or throws ClusterRefusal with the reason it may not run. */
export async function joinCluster(
  db: Kysely<Database>,
  o: {
    instanceId: string;
    info: Omit<MemberInfo, 'host' | 'pid'>;
    now?: () => number;
    onError?: (err: unknown) => void;
  },
): Promise<Membership> {
  const now = o.now ?? Date.now;
  const me: MemberInfo = { host: hostname(), pid: process.pid, ...o.info };
  const name = `${PROCESS_PREFIX}${o.instanceId}`;
  const live = (await liveLeases(db, PROCESS_PREFIX, now())).flatMap((l) => {
    try {
      return [{ name: l.name, member: JSON.parse(l.info) as MemberInfo }];
    } catch {
      return [];
    }
  });
  const twin = live.find((l) => l.name === name && isAlive(l.member));
  if (twin)
    throw new ClusterRefusal(
      `the server process ${twin.member.host} pid ${twin.member.pid} runs with the same INSTANCE_ID (${o.instanceId}); give each process its own`,
    );
  const reason = refusalReason(
    me,
    live.filter((l) => l.name !== name).map((l) => l.member),
  );
  if (reason) throw new ClusterRefusal(reason);
  const info = JSON.stringify(me);
  await claimLease(db, name, name, now(), PROCESS_TTL_MS, info);
  const timer = setInterval(() => {
    claimLease(db, name, name, now(), PROCESS_TTL_MS, info).catch((err) => o.onError?.(err));
  }, RENEW_MS);
  timer.unref();
  return {
    name,
    async leave() {
      clearInterval(timer);
      await releaseLease(db, name, name).catch(() => {});
    },
  };
}
