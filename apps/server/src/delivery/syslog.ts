import type { Kysely } from 'kysely';
import { writeSysLog } from '../infra/audit/syslog';
import type { Database } from '../infra/db/schema';
import type { SysLogLine } from './broker/events';

/**
 * System-log rows from the delivery layer, damped: the same line (event, tenant, text) is written
 * at most once per `windowMs`; the next one after the window says how many were left out. A
 * station retrying a wrong secret, or flooding bad messages, cannot flood the log.
 */
export interface DampedSysLog {
  write(line: SysLogLine): void;
  /** Resolves when every row written so far is stored. */
  flush(): Promise<void>;
}

export function dampedSysLog(
  db: Kysely<Database>,
  now: () => number,
  windowMs = 60_000,
  maxKeys = 10_000,
): DampedSysLog {
  const seen = new Map<string, { at: number; skipped: number }>();
  const pending = new Set<Promise<void>>();
  const write = (line: SysLogLine) => {
    const key = `${line.event}|${line.tenantId}|${line.message}`;
    const t = now();
    const last = seen.get(key);
    if (last && t - last.at < windowMs) {
      last.skipped++;
      return;
    }
    const skipped = last?.skipped ?? 0;
    seen.delete(key);
    seen.set(key, { at: t, skipped: 0 });
    if (seen.size > maxKeys) {
      const oldest = seen.keys().next().value;
      if (oldest !== undefined) seen.delete(oldest);
    }
    const done = writeSysLog(
      { db },
      {
        tenantId: line.tenantId,
        ...(line.storeId !== undefined ? { storeId: line.storeId } : {}),
        ...(line.stationSn !== undefined ? { stationSn: line.stationSn } : {}),
        level: line.level,
        event: line.event,
        message: skipped > 0 ? `${line.message} (and ${skipped} more like it since the last row)` : line.message,
        time: t,
      },
    ).finally(() => pending.delete(done));
    pending.add(done);
  };
  return {
    write,
    async flush() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
