import type { Kysely } from 'kysely';
import { transact } from '../../infra/db/retry';
import type { Database } from '../../infra/db/schema';
import type { Notices } from '../../infra/notice/notices';
import { enqueueEvent, type ProblemEventData } from '../../outbox/results/repository';
import * as repo from './repository';

/*
 * The problems sweep (docs/PROBLEMS.md), run by the delivery engine's timer: what is wrong now
 * against what the last sweep found (`problems`). Each problem that started gets its row and a
 * `problem.started` event, each that ended loses its row and gets a `problem.ended` event, in one
 * transaction per batch; the row's insert and delete are conditional, so with several server
 * processes each start and end is told once. The consoles of the tenant hear a
 * `problems.changed` notice per store that changed.
 */

const BATCH = 500;

interface Stored {
  code: string;
  name: string;
  detail: string;
}

function storedOf(json: string): Stored {
  try {
    const v = JSON.parse(json) as Partial<Stored>;
    return { code: String(v.code ?? ''), name: String(v.name ?? ''), detail: String(v.detail ?? '') };
  } catch {
    return { code: '', name: '', detail: json };
  }
}

export async function watchProblems(
  db: Kysely<Database>,
  notices: Notices | null,
  now: number,
): Promise<{ started: number; ended: number }> {
  await repo.clearRebound(db);
  const current = await repo.problemsNow(db, { tenantId: null, storeIds: null }, now).execute();
  const before = await repo.recorded(db);
  const key = (tenantId: number, kind: string, subject: string) => `${tenantId}|${kind}|${subject}`;
  const known = new Set(before.map((r) => key(Number(r.tenant_id), r.kind, r.subject)));
  const nowKeys = new Set<string>();
  const starts: repo.ProblemRow[] = [];
  for (const r of current) {
    const k = key(Number(r.tenant_id), r.kind, `${r.subject}:${r.id}`);
    nowKeys.add(k);
    if (!known.has(k)) starts.push(r);
  }
  const ends = before.filter((r) => !nowKeys.has(key(Number(r.tenant_id), r.kind, r.subject)));
  // Per tenant and store: how many of each kind started and ended, for the consoles.
  const changed = new Map<string, { tenantId: number; storeId: number; started: number; ended: number }>();
  const note = (tenantId: number, storeId: number, field: 'started' | 'ended') => {
    const k = `${tenantId}|${storeId}`;
    const c = changed.get(k) ?? { tenantId, storeId, started: 0, ended: 0 };
    c[field]++;
    changed.set(k, c);
  };
  let started = 0;
  let ended = 0;
  for (let i = 0; i < starts.length; i += BATCH) {
    await transact(db, async (trx) => {
      for (const r of starts.slice(i, i + BATCH)) {
        const tenantId = Number(r.tenant_id);
        const storeId = Number(r.store_id);
        const subject = `${r.subject}:${r.id}`;
        const detail = JSON.stringify({ code: r.code, name: r.name, detail: r.detail });
        if (!(await repo.recordStart(trx, { tenantId, storeId, kind: r.kind, subject, detail, now }))) continue;
        const data: ProblemEventData = {
          storeId,
          kind: r.kind,
          subject: r.subject,
          id: Number(r.id),
          code: r.code,
          name: r.name,
          detail: r.detail,
          startedAt: now,
          endedAt: null,
        };
        await enqueueEvent(trx, { tenantId, storeId, type: 'problem.started', orderKey: subject, data, now });
        note(tenantId, storeId, 'started');
        started++;
      }
    });
  }
  for (let i = 0; i < ends.length; i += BATCH) {
    await transact(db, async (trx) => {
      for (const r of ends.slice(i, i + BATCH)) {
        const tenantId = Number(r.tenant_id);
        const storeId = Number(r.store_id);
        const startedAt = Number(r.started_at);
        if (!(await repo.recordEnd(trx, { tenantId, kind: r.kind, subject: r.subject, startedAt }))) continue;
        const [subject, id] = r.subject.split(':');
        const s = storedOf(r.detail);
        const data: ProblemEventData = {
          storeId,
          kind: r.kind,
          subject: subject === 'station' ? 'station' : 'tag',
          id: Number(id),
          ...s,
          startedAt,
          endedAt: now,
        };
        await enqueueEvent(trx, { tenantId, storeId, type: 'problem.ended', orderKey: r.subject, data, now });
        note(tenantId, storeId, 'ended');
        ended++;
      }
    });
  }
  for (const c of changed.values()) {
    notices?.broadcast(c.tenantId, {
      type: 'problems.changed',
      storeId: c.storeId,
      started: c.started,
      ended: c.ended,
    });
  }
  return { started, ended };
}
