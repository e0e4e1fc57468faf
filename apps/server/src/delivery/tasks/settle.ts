import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema';
import { appendTagLog, type TagLogResult } from '../../infra/logs';
import { enqueueTagResult, tagResultOf } from '../../outbox/results/repository';
import * as outbox from '../../outbox/slots/repository';
import { backoffMs, MAX_ATTEMPTS } from './policy';
import * as repo from './repository';
import { ACTIVE_AT_STATION, type EngineState, type StationRef } from './state';

/*
 * How a slot's revision ends, whichever stage ends it (docs/DELIVERY-ENGINE.md): its request
 * counts it, the tag log and the tenant's callback get their row, the notices gather the tag and
 * the request's progress and go out once per pump or station message (flushNotices).
 */

/** A tag of a tenant's store changed: one `tag.changed` notice at the next flush. */
export function tagChanged(state: EngineState, tenantId: number, storeId: number, id: number | null) {
  if (id === null) return;
  const key = `${tenantId}:${storeId}`;
  const entry = state.changedTags.get(key) ?? { tenantId, storeId, ids: new Set<number>() };
  entry.ids.add(id);
  state.changedTags.set(key, entry);
}

/** Sends the notices gathered: changed tags per tenant and store, request progress. */
export function flushNotices(state: EngineState) {
  const { notices } = state.o;
  for (const { tenantId, storeId, ids } of state.changedTags.values()) {
    notices.broadcast(tenantId, { type: 'tag.changed', storeId, ids: [...ids] });
  }
  state.changedTags.clear();
  // At most 4 progress notices a second per request (the last one, 'done', always goes out).
  const real = performance.now();
  for (const r of state.progress.values()) {
    const last = state.progressSentAt.get(r.id);
    if (r.status !== 'done' && last !== undefined && real - last < 250) continue;
    state.progress.delete(r.id);
    if (r.status === 'done') state.progressSentAt.delete(r.id);
    else state.progressSentAt.set(r.id, real);
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
}

/** What `settled` reads of a slot. */
export interface SettledSlot {
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
}

/** The tag-log row of a settled slot. */
export interface SettledLog {
  result: TagLogResult;
  code: string | null;
  stationSn?: string | null;
  airMs?: number;
  rssi?: number;
}

/** A slot's revision ended: its request counts it, the tag log gets its row. */
export async function settled(
  state: EngineState,
  trx: Kysely<Database>,
  slot: SettledSlot,
  ok: boolean,
  log?: SettledLog,
) {
  const { now } = state;
  tagChanged(state, slot.tenant_id, slot.store_id, slot.tag_id);
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
  if (row) state.progress.set(row.id, row);
}

/** Whether a slot is this station's (its tenant's, sent to it). */
export const mine = (slot: repo.SlotRow | undefined, station: StationRef) =>
  slot !== undefined && slot.tenant_id === station.tenant_id && slot.station_id === station.id;

/** A job that did not make it: queued again after its backoff, or failed after its last attempt. */
export async function retryOrFail(
  state: EngineState,
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
      await settled(state, trx, slot, false, { result: 'failed', code, stationSn });
    }
    return;
  }
  const wait = backoffMs(attempts, state.random(), state.o.backoffScale ?? 1);
  if (await repo.requeue(trx, { id: slot.id, rev: slot.rev, from: ACTIVE_AT_STATION, notBefore: t + wait, code })) {
    state.counters.resent++;
  }
}

/** Once every station answered a roll call, the tags none of them listed count as absent. */
export async function closeRollCall(state: EngineState, db: Kysely<Database>, requestId: number) {
  if ((await repo.activeRollCalls(db, requestId)) > 0) return;
  const row = await repo.findRequestById(db, requestId);
  if (!row || row.status === 'done') return;
  const missing = Number(row.total) - Number(row.done) - Number(row.failed);
  const updated = await outbox.countRequest(db, requestId, 0, Math.max(0, missing), state.now());
  if (updated) state.progress.set(updated.id, updated);
}
