import {
  encodeJobMessages,
  type HeartbeatMsg,
  type Job,
  type StationCaps,
  type StationKey,
} from '@esl/contract/protocol';
import { transact } from '../../infra/db/retry';
import * as dispatchRepo from './dispatch/repository';
import { ACK_MS, jobId, ttlS, windowSize } from './policy';
import * as repo from './repository';
import { settled } from './settle';
import { DEFAULT_CAPS, type EngineState, type StationRef, SVC_PER_S } from './state';

/*
 * The dispatcher (docs/DELIVERY-ENGINE.md): per online station with due work, as many jobs as its
 * in-flight window has room for — the window sized from its hello's caps and its measured
 * service rate — claimed queued → sent in one transaction and sent after commit through the
 * downlink (image data inline when small, else pulled by the station as a blob).
 */

/** A stored image's bytes, cached (inline jobs, blob pulls). */
export async function imageBytes(state: EngineState, tenantId: number, hash: string): Promise<Uint8Array | null> {
  const key = `${tenantId}:${hash}`;
  const hit = state.imageCache.get(key);
  if (hit) return hit;
  const bytes = await state.o.render.loadImage(state.db, tenantId, hash);
  if (bytes) {
    if (state.imageCache.size > 2000) state.imageCache.delete(state.imageCache.keys().next().value as string);
    state.imageCache.set(key, bytes);
  }
  return bytes;
}

/**
 * Service rate per station, tags/s: what its radio would serve when busy all the time, from its
 * heartbeats (`svcPerS` served over `busyPct` of the airtime), smoothed; the profile's estimate
 * until a heartbeat of a busy enough radio (≥ 20 %) says otherwise — an idle radio serves
 * little and says nothing about what it could.
 */
export function onHeartbeat(state: EngineState, station: StationRef, m: HeartbeatMsg) {
  const { busyPct, svcPerS } = m.radio;
  if (busyPct < 20 || svcPerS <= 0) return;
  const capacity = Math.min(200, Math.max(0.5, (svcPerS * 100) / busyPct));
  const prev = state.measured.get(station.id);
  state.measured.set(station.id, prev === undefined ? capacity : 0.7 * prev + 0.3 * capacity);
}
/** The service rate (tags/s) and in-flight window a station's dispatch uses now. */
export function windowOf(state: EngineState, stationId: number) {
  const caps = state.stations.get(stationId)?.caps ?? DEFAULT_CAPS;
  const svcPerS = state.measured.get(stationId) ?? SVC_PER_S;
  const window = windowSize({ queue: caps.queue, queueBytes: caps.queueBytes, avgBytes: 1300, wakeS: 40, svcPerS });
  return { svcPerS, window };
}

/**
 * Sends each online station with due work as many jobs as its window has room for: queued → sent
 * in one transaction, then sent after commit. Answers whether any job went out.
 */
export async function dispatch(state: EngineState): Promise<boolean> {
  const t = state.now();
  let any = false;
  for (const st of await dispatchRepo.stationsWithWork(state.db, t)) {
    if (state.o.claimStation && !(await state.o.claimStation(st.id))) continue;
    // Null until the station said hello to this process (after a restart it is still marked online).
    const known = state.stations.get(st.id)?.caps ?? null;
    const caps = known ?? DEFAULT_CAPS;
    const inflight = await dispatchRepo.inflightOf(state.db, st.id);
    const { window, svcPerS } = windowOf(state, st.id);
    const free = Math.min(window - inflight, 256);
    if (free <= 0) continue;
    const due = await dispatchRepo.dueForStation(state.db, st.id, t, free);
    const sent: Array<{ slot: dispatchRepo.DueSlot; ttl: number }> = [];
    await transact(state.db, async (trx) => {
      sent.length = 0;
      for (const [i, slot] of due.entries()) {
        if (!caps.kinds.includes(slot.kind)) {
          // Its kinds not known yet (no hello to this process): a kind beyond the defaults (a page
          // switch, NFC) waits for the hello rather than fail as unsupported.
          if (known === null) continue;
          // The station cannot do it at all (not in its caps.kinds): final, not left queued for ever.
          if (
            await repo.finish(trx, {
              id: slot.id,
              rev: slot.rev,
              from: ['queued'],
              state: 'failed',
              code: 'unsupported',
              now: t,
            })
          ) {
            await settled(
              state,
              trx,
              { ...slot, store_id: st.store_id, tag_id: slot.tag_id, request_id: slot.request_id },
              false,
              {
                result: 'failed',
                code: 'unsupported',
                stationSn: st.sn,
              },
            );
          }
          continue;
        }
        const ttl = ttlS(slot.wake_s, inflight + i, svcPerS);
        if (
          await dispatchRepo.markSent(trx, {
            id: slot.id,
            rev: slot.rev,
            stationId: st.id,
            now: t,
            ackDeadline: t + ACK_MS,
            ttlS: ttl,
          })
        ) {
          sent.push({ slot, ttl });
        }
      }
    });
    if (sent.length === 0) continue;
    any = true;
    const jobs: Job[] = [];
    for (const { slot, ttl } of sent) {
      const job = await toJob(state, slot, ttl, caps);
      if (job) jobs.push(job);
    }
    const key: StationKey = { tenantId: st.tenant_id, sn: st.sn };
    for (const payload of encodeJobMessages(jobs)) {
      await state.link.sendEncoded(key, 'jobs', payload, { qos: 1 });
    }
    state.counters.jobsSent += jobs.length;
  }
  return any;
}

async function toJob(
  state: EngineState,
  slot: dispatchRepo.DueSlot,
  ttl: number,
  caps: StationCaps,
): Promise<Job | null> {
  const base = {
    id: jobId(slot.id),
    rev: slot.rev,
    att: Number(slot.attempt) + 1,
    prio: Math.min(3, Math.max(0, slot.prio)) as 0 | 1 | 2 | 3,
    ttlS: ttl,
  };
  const tag = slot.hardware_id ?? '';
  switch (slot.kind) {
    case 'image': {
      if (!slot.hash || !slot.size) return null;
      const image: { hash: string; ver: string; size: number; data?: string } = {
        hash: slot.hash,
        ver: slot.hash.slice(0, 16),
        size: Number(slot.size),
      };
      if (image.size <= caps.inlineMax) {
        const bytes = await imageBytes(state, slot.tenant_id, slot.hash);
        if (bytes) image.data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
      }
      return { ...base, kind: 'image', tag, ...(Number(slot.force) ? { force: true } : {}), image };
    }
    case 'led':
      return { ...base, kind: 'led', tag, led: JSON.parse(slot.payload) };
    case 'ping':
      return { ...base, kind: 'ping', tag, ...(slot.payload ? { led: JSON.parse(slot.payload) } : {}) };
    case 'page': {
      // Label pages (docs/PROTOCOL.md §5.15): the tag shows another page it holds, no image sent.
      // With `at` still ahead the tag switches by its own timer then (rule 5); a past one is now.
      // A switch sent after its time keeps its end: the stay counts from `at` (a schedule's window
      // ends on time), at least a second.
      const { page, stayS, at } = JSON.parse(slot.payload) as { page: number; stayS: number; at?: number };
      const now = state.now();
      if (at !== undefined && at > now) return { ...base, kind: 'page', tag, page, stayS, at };
      const late = at === undefined || stayS === 0 ? 0 : Math.floor((now - at) / 1000);
      return { ...base, kind: 'page', tag, page, stayS: late ? Math.max(1, stayS - late) : stayS };
    }
    case 'nfc':
      // NFC content (docs/PROTOCOL.md §5.16): written into the tag's chip at its next check-in.
      return { ...base, kind: 'nfc', tag, nfc: JSON.parse(slot.payload) };
    case 'rollcall':
      return { ...base, kind: 'rollcall' };
    default:
      return null;
  }
}
