import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import * as repo from './repository';

export interface SysEvent {
  /** Null for platform events. */
  tenantId: number | null;
  level: 'info' | 'warn' | 'error';
  event: string;
  message: string;
  time: number;
}

/** Writes a system-log row; a failure to log goes to the process log, never to the caller. */
export async function writeSysLog(services: { db: Kysely<Database> }, e: SysEvent): Promise<void> {
  try {
    await repo.insertSysLog(services.db, {
      tenant_id: e.tenantId,
      level: e.level,
      event: e.event,
      message: e.message.slice(0, 2000),
      time: e.time,
    });
  } catch (err) {
    console.error('system log write failed', err);
  }
}
