import type { Kysely } from 'kysely';
import { transact } from '../../infra/db/retry';
import type { Database, DeviceRequestKind, TaskKind } from '../../infra/db/schema';
import { finalsOfRequest } from '../../infra/logs';
import { enqueueRequestDone } from '../results/repository';
import { PRIO, tasksChanged } from './enqueue';
import * as repo from './repository';

/*
 * User operations on tags (/mgr/tag/flashesl, flashallesl, echoesl, echoallesl, ledesl, showpage): each is
 * one device request whose id the call answers at once; its tasks are slots of the engine and
 * its progress (done / failed / total) counts their final results.
 */

export interface Operator {
  tenantId: number;
  storeId: number;
  userId: number | null;
  now: number;
}

export interface Started {
  requestId: number;
  tasks: number;
}

export interface LedPattern {
  colour: string;
  onMs: number;
  offMs: number;
  count: number;
  repeat: number;
}

/** Slots of other requests this one takes over count as done for them. */
async function takeOver(
  trx: Kysely<Database>,
  at: Operator,
  kind: TaskKind,
  tagIds: readonly number[] | null,
  requestId: number,
) {
  for (const r of await repo.takenOver(trx, { tenantId: at.tenantId, storeId: at.storeId, kind, tagIds }, requestId)) {
    await repo.countRequest(trx, r.request_id, r.n, 0, at.now);
  }
}

async function start(
  db: Kysely<Database>,
  at: Operator,
  kind: DeviceRequestKind,
  tagIds: readonly number[] | null,
  params: unknown,
  enqueue: (trx: Kysely<Database>, requestId: number) => Promise<number>,
): Promise<Started> {
  const started = await transact(db, (trx) => startIn(trx, at, kind, tagIds, params, enqueue));
  tasksChanged();
  return started;
}

/** `start` inside the caller's transaction (the caller calls `tasksChanged()` after its commit). */
async function startIn(
  trx: Kysely<Database>,
  at: Operator,
  kind: DeviceRequestKind,
  tagIds: readonly number[] | null,
  params: unknown,
  enqueue: (trx: Kysely<Database>, requestId: number) => Promise<number>,
): Promise<Started> {
  const requestId = await repo.insertRequest(trx, {
    tenantId: at.tenantId,
    storeId: at.storeId,
    kind,
    tagId: tagIds?.length === 1 ? (tagIds[0] as number) : null,
    userId: at.userId,
    params,
    now: at.now,
  });
  const tasks = await enqueue(trx, requestId);
  await repo.setRequestTotal(trx, requestId, tasks, at.now);
  return { requestId, tasks };
}

/** Refresh: render and send again; `force` sends even what the tag already shows. */
export function refresh(db: Kysely<Database>, at: Operator, tagIds: readonly number[] | null, force: boolean) {
  return start(db, at, tagIds ? 'tag.refresh' : 'tag.refreshAll', tagIds, { force, tagIds }, async (trx, requestId) => {
    await takeOver(trx, at, 'image', tagIds, requestId);
    return repo.upsertImageSlots(trx, {
      tenantId: at.tenantId,
      storeId: at.storeId,
      tagIds,
      prio: tagIds ? PRIO.interactive : PRIO.bulk,
      force,
      requestId,
      now: at.now,
    });
  });
}

/** Roll call of some tags: a ping each (`ok` when it checks in, `timeout` otherwise). */
export function ping(db: Kysely<Database>, at: Operator, tagIds: readonly number[], led?: LedPattern) {
  return start(db, at, 'tag.rollcall', tagIds, { tagIds, led }, async (trx, requestId) => {
    await takeOver(trx, at, 'ping', tagIds, requestId);
    return repo.upsertTagCommandSlots(trx, {
      tenantId: at.tenantId,
      storeId: at.storeId,
      tagIds,
      kind: 'ping',
      payload: led ? JSON.stringify(led) : '',
      prio: PRIO.interactive,
      requestId,
      now: at.now,
    });
  });
}

/** LED flash on some tags. */
export function led(db: Kysely<Database>, at: Operator, tagIds: readonly number[], pattern: LedPattern) {
  return start(db, at, 'tag.led', tagIds, { tagIds, led: pattern }, async (trx, requestId) => {
    await takeOver(trx, at, 'led', tagIds, requestId);
    return repo.upsertTagCommandSlots(trx, {
      tenantId: at.tenantId,
      storeId: at.storeId,
      tagIds,
      kind: 'led',
      payload: JSON.stringify(pattern),
      prio: PRIO.interactive,
      requestId,
      now: at.now,
    });
  });
}

/** A page switch (docs/PAGES.md): the page to show and the seconds before page 1 again. */
export interface PageSwitch {
  page: number;
  stayS: number;
  /** Server time at which the tags switch (sent ahead; docs/PROTOCOL.md §5.15 rule 5). */
  at?: number;
}

/** The slots of a page switch under request `requestId`. */
function pageSlots(at: Operator, tagIds: readonly number[], page: PageSwitch) {
  return async (trx: Kysely<Database>, requestId: number) => {
    await takeOver(trx, at, 'page', tagIds, requestId);
    return repo.upsertTagCommandSlots(trx, {
      tenantId: at.tenantId,
      storeId: at.storeId,
      tagIds,
      kind: 'page',
      payload: JSON.stringify(page),
      prio: PRIO.interactive,
      requestId,
      now: at.now,
    });
  };
}

/** Label pages: some tags show another page of the label they hold (no image transfer). */
export function showPage(db: Kysely<Database>, at: Operator, tagIds: readonly number[], page: PageSwitch) {
  return start(db, at, 'tag.page', tagIds, { tagIds, ...page }, pageSlots(at, tagIds, page));
}

/**
 * A page switch inside the caller's transaction (page schedules, docs/PAGES.md: the switch and the
 * schedule's record of it are written together). The caller calls `tasksChanged()` after it commits.
 */
export function showPageIn(trx: Kysely<Database>, at: Operator, tagIds: readonly number[], page: PageSwitch) {
  // The request keeps how many tags, not their ids: a schedule may switch a whole store.
  return startIn(trx, at, 'tag.page', tagIds, { tags: tagIds.length, ...page }, pageSlots(at, tagIds, page));
}

/**
 * A data change its caller follows by a request id (the integration API's product upsert and
 * delete), inside the caller's transaction: the request, then `enqueue` opens the label slots of
 * `tagIds` under its id (an unfinished slot of an earlier request is taken over and counts as
 * done for it, as a refresh's does) and answers how many, then the total. With no tag to relabel
 * the request is done at once, and its "request done" callback is written with it.
 */
export async function dataChange(
  trx: Kysely<Database>,
  at: Operator,
  kind: 'product.upsert' | 'product.delete',
  tagIds: readonly number[],
  enqueue: (requestId: number) => Promise<number>,
): Promise<Started> {
  const requestId = await repo.insertRequest(trx, {
    tenantId: at.tenantId,
    storeId: at.storeId,
    kind,
    tagId: tagIds.length === 1 ? (tagIds[0] as number) : null,
    userId: at.userId,
    params: { tags: tagIds.length },
    now: at.now,
  });
  // A thousand at a time, as dataPushed opens them: a product may be on many tags.
  for (let i = 0; i < tagIds.length; i += 1000) await takeOver(trx, at, 'image', tagIds.slice(i, i + 1000), requestId);
  const tasks = tagIds.length ? await enqueue(requestId) : 0;
  await repo.setRequestTotal(trx, requestId, tasks, at.now);
  if (tasks === 0) {
    const data = { storeId: at.storeId, requestId, kind, total: 0, done: 0, failed: 0 };
    await enqueueRequestDone(trx, at.tenantId, data, at.now);
  }
  return { requestId, tasks };
}

/**
 * Roll call of every tag: one job per station, answered from its tag table. The request counts
 * tags: each present tag done, each absent one failed; tags no station lists fail when the last
 * station has answered.
 */
export function rollCallAll(db: Kysely<Database>, at: Operator) {
  return start(db, at, 'tag.rollcallAll', null, {}, async (trx, requestId) => {
    await repo.upsertRollCallSlots(trx, { tenantId: at.tenantId, storeId: at.storeId, requestId, now: at.now });
    return repo.countTagsOfStore(trx, at.tenantId, at.storeId);
  });
}

export interface Progress {
  id: number;
  kind: string;
  status: string;
  total: number;
  done: number;
  failed: number;
  createdAt: number;
  finishedAt: number | null;
}

export function presentProgress(r: repo.RequestRow): Progress {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    total: Number(r.total),
    done: Number(r.done),
    failed: Number(r.failed),
    createdAt: Number(r.created_at),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
  };
}

export async function progress(db: Kysely<Database>, tenantId: number, id: number): Promise<Progress | null> {
  const row = await repo.findRequest(db, tenantId, id);
  return row ? presentProgress(row) : null;
}

/** Where one tag of a request stands: waiting ('queued', 'sent') or ended ('done', 'failed'). */
export interface TagResult {
  tagId: number;
  hardwareId: string;
  state: 'queued' | 'sent' | 'done' | 'failed';
  /** Why it failed ('timeout', 'nack', 'renderError', …); null when it did not. */
  code: string | null;
}

/**
 * Per tag, how a request went (at most `limit` tags): what the tag log recorded for it, else the
 * state of the slot it still owns. A tag whose slot a later request took over without a logged
 * end for this one is not listed.
 */
export async function results(db: Kysely<Database>, tenantId: number, id: number, limit = 2000): Promise<TagResult[]> {
  const byTag = new Map<number, TagResult>();
  for (const r of await finalsOfRequest(db, tenantId, id, limit * 4)) {
    const ok = r.result === 'ok' || r.result === 'skipped';
    byTag.set(r.tag_id, {
      tagId: r.tag_id,
      hardwareId: r.hardware_id,
      state: ok ? 'done' : 'failed',
      code: ok ? null : r.code || r.result,
    });
  }
  for (const s of await repo.slotsOfRequest(db, tenantId, id, limit)) {
    if (s.tag_id === null || byTag.has(s.tag_id)) continue;
    const state =
      s.state === 'done'
        ? 'done'
        : s.state === 'failed' || s.state === 'cancelled'
          ? 'failed'
          : s.state === 'sent' || s.state === 'accepted'
            ? 'sent'
            : 'queued';
    byTag.set(s.tag_id, {
      tagId: s.tag_id,
      hardwareId: s.hardware_id,
      state,
      code: state === 'failed' ? s.code : null,
    });
  }
  return [...byTag.values()].sort((a, b) => a.tagId - b.tagId).slice(0, limit);
}
