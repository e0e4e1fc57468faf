import { type PageSchedule, type ParsedBodyOf, pageWindow } from '@esl/contract';
import { pageCount } from '@esl/labels';
import type { Kysely, Updateable } from 'kysely';
import type { CallContext } from '../../api/context';
import { invalidField, notFound } from '../../api/errors';
import type { Database, PageScheduleTable } from '../../infra/db/schema';
import { tasksChanged } from '../../outbox/slots/enqueue';
import { currentStore, timeZones } from '../stores/service';
import * as templates from '../templates/service';
import * as repo from './repository';
import { backToFirst } from './runner';

/*
 * Page schedules (docs/PAGES.md "Page schedules"): on chosen weekdays, from a time of day to
 * another on the store's clock, the store's tags drawn with a template show another page. The
 * calls keep the rows; the runner (runner.ts, run by the scheduler's tick) sends each window's
 * switch ahead and checks its end. All on the session's current store: another store's schedule
 * is not found.
 */

type At = { tenantId: number; storeId: number };

async function zoneOf(db: Kysely<Database>, at: At) {
  return (await timeZones(db, at.tenantId, [at.storeId])).get(at.storeId) ?? 'UTC';
}

const weekdaysOf = (text: string) => text.split(',').filter(Boolean).map(Number);

export function present(row: repo.PageScheduleRow, timeZone: string, now: number): PageSchedule {
  const weekdays = weekdaysOf(row.weekdays);
  const enabled = Number(row.enabled) === 1;
  const next = enabled ? pageWindow({ weekdays, from: row.from_time, to: row.to_time }, timeZone, now) : null;
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    templateId: row.template_id,
    templateName: row.template_name,
    page: row.page,
    weekdays,
    from: row.from_time,
    to: row.to_time,
    enabled,
    timeZone,
    next,
    active: next !== null && next.start <= now,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The template, of the tenant, with the page asked for. */
async function checkTemplate(db: Kysely<Database>, tenantId: number, templateId: number, page: number) {
  const found = await repo.findTemplate(db, tenantId, templateId);
  if (!found) throw invalidField('templateId', 'invalid');
  const doc = (await templates.documentsOf(db, tenantId, [templateId])).get(templateId);
  if (!doc || pageCount(doc.doc) < page) throw invalidField('page', 'pageMissing');
  return found;
}

export async function list(ctx: CallContext, f: ParsedBodyOf<'pageScheduleList'>) {
  const at = await currentStore(ctx);
  const { rows, count } = await repo.listSchedules(ctx.services.db, at, f);
  const tz = await zoneOf(ctx.services.db, at);
  return { rows: rows.map((r) => present(r, tz, ctx.now)), count };
}

export async function add(ctx: CallContext, body: ParsedBodyOf<'addPageSchedule'>) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const template = await checkTemplate(db, at.tenantId, body.templateId, body.page);
  ctx.target = { kind: 'pageSchedule', name: body.name || `${body.from}–${body.to}`, extra: template.name };
  const id = await repo.insertSchedule(db, {
    tenant_id: at.tenantId,
    store_id: at.storeId,
    template_id: body.templateId,
    name: body.name,
    page: body.page,
    weekdays: [...body.weekdays].sort().join(','),
    from_time: body.from,
    to_time: body.to,
    enabled: body.enabled ? 1 : 0,
    armed_start: null,
    armed_end: null,
    ended_start: null,
    created_by: at.userId,
    created_at: ctx.now,
    updated_at: ctx.now,
  });
  tasksChanged();
  const row = await repo.findSchedule(db, at, id);
  if (!row) throw notFound();
  return present(row, await zoneOf(db, at), ctx.now);
}

/**
 * Other settings for a schedule of the current store. A window sent ahead or under way ends
 * first (its tags go back to page 1, a held switch is replaced), then the schedule starts again
 * as changed: the runner sends its window anew.
 */
export async function edit(ctx: CallContext, id: number, patch: Omit<ParsedBodyOf<'editPageSchedule'>, 'id'>) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const row = await repo.findSchedule(db, at, id);
  if (!row) throw notFound();
  const from = patch.from ?? row.from_time;
  const to = patch.to ?? row.to_time;
  if (from === to) throw invalidField('to', 'sameTime');
  const templateId = patch.templateId ?? row.template_id;
  const page = patch.page ?? row.page;
  const template = await checkTemplate(db, at.tenantId, templateId, page);
  ctx.target = { kind: 'pageSchedule', name: patch.name ?? (row.name || `#${row.id}`), extra: template.name };
  const set: Updateable<PageScheduleTable> = { updated_at: ctx.now, template_id: templateId, page };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.weekdays !== undefined) set.weekdays = [...patch.weekdays].sort().join(',');
  set.from_time = from;
  set.to_time = to;
  if (patch.enabled !== undefined) set.enabled = patch.enabled ? 1 : 0;
  await db.transaction().execute(async (trx) => {
    await backToFirst(trx, row, ctx.now);
    await repo.reset(trx, id);
    if (!(await repo.updateSchedule(trx, at, id, set))) throw notFound();
  });
  tasksChanged();
  const updated = await repo.findSchedule(db, at, id);
  if (!updated) throw notFound();
  return present(updated, await zoneOf(db, at), ctx.now);
}

/** Deletes schedules of the current store, all or none; their tags showing the page go back to page 1. */
export async function remove(ctx: CallContext, ids: readonly number[]) {
  const at = await currentStore(ctx);
  const unique = [...new Set(ids)];
  const { db } = ctx.services;
  ctx.target = { kind: 'pageSchedules', names: unique.map((id) => `#${id}`), count: unique.length };
  const n = await db.transaction().execute(async (trx) => {
    const rows = await repo.schedulesIn(trx, at, unique);
    if (rows.length !== unique.length) throw notFound();
    ctx.target = { kind: 'pageSchedules', names: rows.map((r) => r.name || `#${r.id}`), count: rows.length };
    for (const r of rows) await backToFirst(trx, r, ctx.now);
    return repo.deleteSchedules(trx, at, unique);
  });
  tasksChanged();
  return n;
}
