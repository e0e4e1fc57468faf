import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { logLine } from '../log-line';
import * as repo from './repository';

export interface SysEvent {
  /** Null for platform events. */
  tenantId: number | null;
  /** The store the event belongs to, when the writer knows it. */
  storeId?: number | null;
  /** A station's event: the row belongs to the station's store (looked up as it is written). */
  stationSn?: string;
  /** The user the event is about (a sign-in): a store-scoped reader sees their own such rows. */
  userId?: number | null;
  level: 'info' | 'warn' | 'error';
  event: string;
  message: string;
  time: number;
}

/** Writes a system-log row; a failure to log goes to the process log, never to the caller. */
export async function writeSysLog(services: { db: Kysely<Database> }, e: SysEvent): Promise<void> {
  try {
    await repo.insertSysLog(
      services.db,
      {
        tenant_id: e.tenantId,
        store_id: e.storeId ?? null,
        user_id: e.userId ?? null,
        level: e.level,
        event: e.event,
        message: e.message.slice(0, 2000),
        time: e.time,
      },
      e.stationSn,
    );
  } catch (err) {
    logLine('error', 'system log write failed', { err });
  }
}
