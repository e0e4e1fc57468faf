import type { JobRef, ResultMsg } from '@esl/contract/protocol';
import type { Kysely } from 'kysely';
import { transact } from '../../infra/db/retry';
import type { Database } from '../../infra/db/schema';
import { appendTagLog, type TagLogResult } from '../../infra/logs';
import * as outbox from '../../outbox/slots/repository';
import { handlingOf, slotId } from './policy';
import { kick } from './pump';
import * as repo from './repository';
import { closeRollCall, flushNotices, mine, retryOrFail, settled, tagChanged } from './settle';
import { ACTIVE_AT_STATION, type EngineState, type StationRef } from './state';

/*
 * Results from the stations (docs/DELIVERY-ENGINE.md): the tag's shown picture for any revision,
 * then for the slot's current one done, failed, cancelled or tried again; roll-call entries count
 * their tags; every result is stored before the station is told it may drop it (`resack`).
 */

type Result = ResultMsg['results'][number];

/** What one message's results need: their slots, and the tags its roll-call entries name. */
interface ResultContext {
  station: StationRef;
  t: number;
  rollTags: Map<string, Awaited<ReturnType<typeof repo.tagsByHardware>>[number]>;
  /** Requests whose roll-call slot this message finished. */
  finishedRollCalls: Set<number>;
  /** Roll-call entries counted in this message's transaction: remembered (state.counted) once it commits. */
  counting: Set<string>;
}

export async function onResult(state: EngineState, station: StationRef, m: ResultMsg) {
  const t = state.now();
  const slots = new Map(
    (
      await repo.slotsByIds(
        state.db,
        m.results.flatMap((r) => slotId(r.id) ?? []),
      )
    ).map((s) => [s.id, s]),
  );
  const rollTags = new Map(
    (
      await repo.tagsByHardware(
        state.db,
        station.tenant_id,
        m.results.flatMap((r) => (r.tag && slots.get(slotId(r.id) ?? 0)?.kind === 'rollcall' ? [r.tag] : [])),
      )
    ).map((x) => [x.hardware_id, x]),
  );
  const c: ResultContext = { station, t, rollTags, finishedRollCalls: new Set<number>(), counting: new Set() };
  // In tag order, then slot order: the tags' and slots' rows are locked in the order every
  // writer of many of them takes (docs/SERVER.md, "Deadlocks and retries").
  const order = (r: Result) => {
    const slot = slots.get(slotId(r.id) ?? 0);
    return [slot?.tag_id ?? 0, slot?.id ?? 0];
  };
  const sorted = [...m.results].sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    return (x[0] as number) - (y[0] as number) || (x[1] as number) - (y[1] as number);
  });
  await transact(state.db, async (trx) => {
    c.finishedRollCalls.clear();
    c.counting.clear();
    for (const r of sorted) {
      const slot = slots.get(slotId(r.id) ?? 0);
      if (!slot || slot.tenant_id !== station.tenant_id) continue;
      state.counters.results++;
      await oneResult(state, trx, c, slot, r);
    }
  });
  if (state.counted.size > 100_000) state.counted.clear();
  for (const key of c.counting) state.counted.add(key);
  // Results are stored: the station may drop them from its outbox.
  const ids: JobRef[] = m.results.map((r) => [r.id, r.rev]);
  await state.link.send({ tenantId: station.tenant_id, sn: station.sn }, 'resack', { v: 1, ids }, { qos: 1 });
  for (const requestId of c.finishedRollCalls) await closeRollCall(state, state.db, requestId);
  flushNotices(state);
  kick(state);
}

/** One result entry of the station's own tenant, in the message's transaction. */
async function oneResult(state: EngineState, trx: Kysely<Database>, c: ResultContext, slot: repo.SlotRow, r: Result) {
  const { station, t } = c;
  // The tag shows this picture whatever became of the slot since (a newer rev, say).
  if (slot.kind === 'image' && slot.tag_id !== null && (r.code === 'ok' || r.code === 'skipped') && r.ver) {
    const hash = slot.hash?.startsWith(r.ver) ? slot.hash : null;
    await repo.setShown(trx, { tagId: slot.tag_id, ver: r.ver, hash, now: t, seenAt: t });
    tagChanged(state, slot.tenant_id, slot.store_id, slot.tag_id);
  }
  if (slot.kind === 'rollcall') {
    await rollCallResult(state, trx, c, slot, r);
    return;
  }
  if (r.rev < slot.rev && slot.tag_id !== null && slot.hardware_id) {
    // A superseded revision ended at the station: its own tag-log row (the slot moved on).
    await appendTagLog(trx, [
      {
        tenantId: slot.tenant_id,
        storeId: slot.store_id,
        tagId: slot.tag_id,
        hardwareId: slot.hardware_id,
        requestId: null,
        kind: slot.kind === 'image' ? 'refresh' : slot.kind,
        rev: r.rev,
        result: r.code === 'ok' || r.code === 'skipped' ? r.code : 'replaced',
        code: r.code === 'ok' ? null : r.code,
        stationSn: station.sn,
        attempts: r.tries ?? 1,
        finishedAt: t,
        airMs: r.airMs ?? null,
        rssi: r.rssi ?? null,
      },
    ]);
  }
  if (r.rev !== slot.rev || !mine(slot, station)) return;
  // A roll-call ping that did not reach the tag says "absent": asking again is not the answer.
  const handling = slot.kind === 'ping' && handlingOf(r.code) !== 'done' ? 'final' : handlingOf(r.code);
  if (handling === 'done' || handling === 'final' || handling === 'cancelled') {
    const final = handling === 'done' ? 'done' : handling === 'cancelled' ? 'cancelled' : 'failed';
    if (
      await repo.finish(trx, {
        id: slot.id,
        rev: slot.rev,
        from: ACTIVE_AT_STATION,
        state: final,
        code: r.code,
        detail: r.detail ?? null,
        now: t,
        // Not tried again at every report: only once the battery is reported better (reopenStale).
        holdBattery: r.code === 'lowBattery',
      })
    ) {
      const result: TagLogResult =
        handling === 'done'
          ? r.code === 'skipped'
            ? 'skipped'
            : 'ok'
          : handling === 'cancelled'
            ? 'cancelled'
            : 'failed';
      await settled(state, trx, slot, handling === 'done', {
        result,
        code: r.code,
        stationSn: station.sn,
        airMs: r.airMs,
        rssi: r.rssi,
      });
    }
  } else {
    await retryOrFail(state, trx, slot, r.code, handling === 'retryOnce', t, station.sn);
  }
}

/** A roll-call entry: its tag counts once for the request; the slot ends with the station's answer. */
async function rollCallResult(
  state: EngineState,
  trx: Kysely<Database>,
  c: ResultContext,
  slot: repo.SlotRow,
  r: Result,
) {
  const { station, t } = c;
  const tag = r.tag ? c.rollTags.get(r.tag) : undefined;
  if (tag && r.present) await repo.markHeard(trx, tag.id, t);
  const key = `${slot.id}:${r.rev}:${r.tag ?? ''}`;
  if (
    tag &&
    slot.request_id !== null &&
    r.rev === slot.rev &&
    mine(slot, station) &&
    !state.counted.has(key) &&
    !c.counting.has(key)
  ) {
    c.counting.add(key);
    const row = await outbox.countRequest(trx, slot.request_id, r.present ? 1 : 0, r.present ? 0 : 1, t);
    if (row) state.progress.set(row.id, row);
  }
  if (
    r.rev === slot.rev &&
    (await repo.finish(trx, {
      id: slot.id,
      rev: slot.rev,
      from: ACTIVE_AT_STATION,
      state: 'done',
      code: 'ok',
      now: t,
    }))
  ) {
    if (slot.request_id !== null) c.finishedRollCalls.add(slot.request_id);
  }
}
