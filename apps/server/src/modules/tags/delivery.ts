import {
  type Language,
  type ParsedBodyOf,
  type TagDelivery,
  type TagTask,
  type TagTaskState,
  tagLogKindName,
  tagLogMessage,
} from '@esl/contract';
import type { CallContext } from '../../api/context';
import { notFound } from '../../api/errors';
import { currentStore } from '../stores/service';
import { readTagDelivery } from './repository';

/*
 * /mgr/tag/delivery: how a tag's deliveries stand, for the console's tag detail (issue 13: "its
 * task state, attempts, station and expected time"). Reads the delivery engine's tables
 * (device_tasks, tags' wake figures) and writes nothing.
 */

const UNFINISHED: readonly TagTaskState[] = ['render', 'queued', 'sent', 'accepted'];
/** States in which the task went through a station of its own (the tag's station otherwise). */
const CARRIED: readonly TagTaskState[] = ['sent', 'accepted', 'done', 'failed'];

type Read = NonNullable<Awaited<ReturnType<typeof readTagDelivery>>>;

const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));

/**
 * The tag's first check-in at or after `from`: its expected next wake, stepped on by its wake
 * interval while that lies before `from` (a tag wakes on its own clock). Null when either is
 * unknown.
 */
export function nextCheckIn(nextWakeAt: number | null, wakeS: number | null, from: number): number | null {
  if (nextWakeAt === null) return null;
  if (nextWakeAt >= from) return nextWakeAt;
  if (wakeS === null || wakeS <= 0) return null;
  const step = wakeS * 1000;
  return nextWakeAt + Math.ceil((from - nextWakeAt) / step) * step;
}

export function presentTagDelivery({ tag, tasks }: Read, now: number, lang: Language): TagDelivery {
  const nextWakeAt = num(tag.next_wake_at);
  const wakeS = num(tag.wake_s);
  const present = (row: Read['tasks'][number]): TagTask => {
    const state = row.state as TagTaskState;
    const code = row.code ?? '';
    const open = UNFINISHED.includes(state);
    const result = state === 'cancelled' ? 'cancelled' : state === 'done' ? 'ok' : 'failed';
    return {
      kind: row.kind,
      kindName: tagLogKindName(row.kind, lang),
      state,
      rev: Number(row.rev),
      attempts: Number(row.attempt),
      code,
      // An unfinished task with a code is being retried after that failure.
      message: state === 'done' || (open && !code) ? '' : tagLogMessage({ kind: row.kind, result, code }, lang),
      stationSn: (CARRIED.includes(state) ? row.station_sn : null) ?? tag.station_sn ?? null,
      requestId: row.request_id,
      queuedAt: num(row.queued_at) ?? num(row.created_at),
      sentAt: num(row.sent_at),
      finishedAt: open ? null : num(row.finished_at),
      expectedAt: open ? nextCheckIn(nextWakeAt, wakeS, Math.max(now, Number(row.not_before))) : null,
    };
  };
  const all = tasks.map(present);
  const rank = (t: TagTask) => (UNFINISHED.includes(t.state) ? 0 : 1);
  return {
    tagId: tag.id,
    wakeS,
    nextWakeAt,
    tasks: all.sort((a, b) => rank(a) - rank(b)),
  };
}

export async function tagDelivery(ctx: CallContext, { id }: ParsedBodyOf<'tagDelivery'>): Promise<TagDelivery> {
  const at = await currentStore(ctx);
  const read = await readTagDelivery(ctx.services.db, at, id);
  if (!read) throw notFound();
  return presentTagDelivery(read, ctx.now, ctx.lang);
}
