import { type AckMsg, type BlobRequestMsg, type HelloMsg, type JobRef, LIMITS } from '@esl/contract/protocol';
import { transact } from '../../infra/db/retry';
import { imageBytes } from './dispatch';
import { DONE_SLACK_MS, jobId, slotId } from './policy';
import { kick } from './pump';
import * as repo from './repository';
import { flushNotices, mine, settled } from './settle';
import { ACTIVE_AT_STATION, type EngineState, type StationRef } from './state';
import { reconcile } from './sweeps';

/*
 * Station messages (docs/DELIVERY-ENGINE.md), but results (results.ts): the hello's resync, acks,
 * blob pulls and tag reports — a tag routed to another station takes its jobs along.
 */

/** Acks: sent → accepted; a full queue → queued again in 5 s; a refusal → failed. */
export async function onAck(state: EngineState, station: StationRef, m: AckMsg) {
  const t = state.now();
  const slots = new Map(
    (
      await repo.slotsByIds(
        state.db,
        m.jobs.flatMap((j) => slotId(j.id) ?? []),
      )
    ).map((s) => [s.id, s]),
  );
  // In slot order: the order every writer of many slots locks them in.
  const jobs = [...m.jobs].sort((a, b) => (slotId(a.id) ?? 0) - (slotId(b.id) ?? 0));
  await transact(state.db, async (trx) => {
    for (const a of jobs) {
      const slot = slots.get(slotId(a.id) ?? 0);
      if (!slot || !mine(slot, station) || slot.rev !== a.rev) continue;
      state.counters.acks++;
      if (a.ok) {
        const ttl = Number(slot.ttl_s ?? 600);
        await repo.markAccepted(trx, slot.id, slot.rev, t, t + ttl * 1000 + DONE_SLACK_MS);
      } else if (a.code === 'full') {
        await repo.requeue(trx, { id: slot.id, rev: slot.rev, from: ['sent'], notBefore: t + 5000 });
      } else if (a.code !== 'stale') {
        if (
          await repo.finish(trx, {
            id: slot.id,
            rev: slot.rev,
            from: ['sent'],
            state: 'failed',
            code: a.code ?? 'invalid',
            now: t,
          })
        ) {
          await settled(state, trx, slot, false, {
            result: 'failed',
            code: a.code ?? 'invalid',
            stationSn: station.sn,
          });
        }
      }
    }
  });
  flushNotices(state);
  kick(state);
}

/**
 * Hello resync (§4.4): what the station holds against what the slots say it holds — held at the
 * current rev → accepted, not held → queued again, held but no longer wanted → cancelled.
 */
export async function onHello(state: EngineState, station: StationRef, m: HelloMsg) {
  state.stations.set(station.id, { caps: m.caps });
  const t = state.now();
  const heldAtHello = new Map<number, number>();
  const unknown: JobRef[] = [];
  for (const [id, rev] of m.queue) {
    const n = slotId(id);
    if (n === null) unknown.push([id, rev]);
    else heldAtHello.set(n, rev);
  }
  const cancel: JobRef[] = [];
  await transact(state.db, async (trx) => {
    cancel.splice(0, cancel.length, ...unknown);
    const held = new Map(heldAtHello);
    for (const a of await repo.sentToStation(trx, station.id)) {
      const h = held.get(a.id);
      if (h === a.rev) {
        if (a.state === 'sent') {
          const ttl = Number(a.ttl_s ?? 600);
          await repo.markAccepted(trx, a.id, a.rev, t, t + ttl * 1000 + DONE_SLACK_MS);
        }
        held.delete(a.id);
      } else if (await repo.requeue(trx, { id: a.id, rev: a.rev, from: ACTIVE_AT_STATION, notBefore: t })) {
        state.counters.resent++;
      }
    }
    // What the station holds that no unfinished task of it wants any more.
    const rows = new Map((await repo.slotRevs(trx, [...held.keys()])).map((r) => [r.id, r]));
    for (const [id, rev] of held) {
      const r = rows.get(id);
      // Still wanted at this rev or a newer one: the next send replaces or repeats it (stations
      // dedupe by (id, rev)); cancelling it would end a job the server is about to send again.
      const live =
        r && r.tenant_id === station.tenant_id && r.rev >= rev && !['done', 'failed', 'cancelled'].includes(r.state);
      if (!live) cancel.push([jobId(id), rev]);
    }
  });
  if (cancel.length) {
    const key = { tenantId: station.tenant_id, sn: station.sn };
    for (let i = 0; i < cancel.length; i += LIMITS.maxRefsPerMessage) {
      await state.link.send(
        key,
        'cancel',
        { v: 1, ids: cancel.slice(i, i + LIMITS.maxRefsPerMessage), reason: 'unknown' },
        { qos: 1 },
      );
    }
  }
  kick(state);
}

/**
 * Tags now routed to another station: their jobs at the old one are taken back (queued again,
 * same revision, for the new route) and the old station is told to drop them. A transfer it has
 * already started finishes; its result no longer belongs to the slot, but the tag's shown
 * picture is still recorded from it, and the new station then skips the tag by its hash.
 */
async function reroute(state: EngineState, tagIds: readonly number[]) {
  if (tagIds.length === 0) return;
  const t = state.now();
  const cancels = new Map<number, { tenantId: number; sn: string; ids: JobRef[] }>();
  for (let i = 0; i < tagIds.length; i += 500) {
    for (const r of await repo.reroutedSlots(state.db, tagIds.slice(i, i + 500))) {
      if (!(await repo.requeue(state.db, { id: r.id, rev: r.rev, from: ACTIVE_AT_STATION, notBefore: t }))) continue;
      state.counters.rerouted++;
      const stationId = r.station_id as number;
      const c = cancels.get(stationId) ?? { tenantId: r.tenant_id, sn: r.sn, ids: [] };
      c.ids.push([jobId(r.id), r.rev]);
      cancels.set(stationId, c);
    }
  }
  for (const c of cancels.values()) {
    for (let i = 0; i < c.ids.length; i += LIMITS.maxRefsPerMessage) {
      await state.link
        .send(
          { tenantId: c.tenantId, sn: c.sn },
          'cancel',
          { v: 1, ids: c.ids.slice(i, i + LIMITS.maxRefsPerMessage), reason: 'moved' },
          { qos: 1 },
        )
        .catch((err) => state.fail(err, 'cancel at the old station'));
    }
  }
}

/**
 * A blob pull: served only while one of the station's sent or accepted slots names that hash.
 * True when the chunk went out; false (counted as refused) otherwise.
 */
export async function onBlob(state: EngineState, station: StationRef, m: BlobRequestMsg): Promise<boolean> {
  if (!(await repo.stationNeedsHash(state.db, station.id, station.tenant_id, m.hash))) {
    state.counters.blobsRefused++;
    return false;
  }
  const bytes = await imageBytes(state, station.tenant_id, m.hash);
  if (!bytes || m.offset >= bytes.length) {
    state.counters.blobsRefused++;
    return false;
  }
  state.counters.blobsServed++;
  await state.link.sendBlobChunk(
    { tenantId: station.tenant_id, sn: station.sn },
    m.hash,
    m.offset,
    bytes.subarray(m.offset, m.offset + m.length),
  );
  return true;
}

/** Tags reported by a station: heal what they show, dispatch what waited for a route. */
export async function onTagsReported(state: EngineState, tagIds: readonly number[]) {
  // A report whose tags all show what they should brings no work: no pump (a claim and a
  // stations-with-work query per report cost 3 % of the gateway's CPU at 1,000 stations).
  if (tagIds.length === 0) return;
  await reroute(state, tagIds);
  await reconcile(state, tagIds);
  kick(state);
}
