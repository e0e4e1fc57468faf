import {
  type Language,
  SCHEDULE_TAG_LOG_KIND,
  type ScheduleAppliedNotice,
  type ScheduleLogDetail,
  scheduleAppliedSummary,
  toLocalTime,
} from '@esl/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema';
import { groupBy } from '../../infra/lib/group';
import { appendTagLog, type TagLogEntry } from '../../infra/logs/repository';
import type { Notices } from '../../infra/notice/notices';
import { findStore, timeZones } from '../stores/service';
import * as repo from './repository';

/*
 * A scheduled change's own record when it takes effect (docs/SCHEDULE.md "When it takes effect"):
 * every tag it relabels gets a tag-log row (kind `schedule`, rev the change's id, the detail
 * saying which change, what it set and its time), in the transaction that applies it; and the
 * user who scheduled it hears, per store and batch, that it took effect there on N tags.
 */

/** A change being applied, as the scheduler read it. */
export interface AppliedChange {
  id: number;
  tenant_id: number;
  store_id: number;
  product_id: number;
  changes: string;
  effective_at: number;
  created_by: number | null;
  batch: string;
}

/** What `logAppliedMany` found for a change: the tags relabelled and the product's name. */
export interface AppliedRecord {
  change: AppliedChange;
  tags: number;
  productName: string;
}

/**
 * Writes the tag-log rows of changes of one store applied together (one per tag showing each
 * change's product), in the caller's transaction: the rows in one statement, the tags and the
 * products' names read once. Answers a record per change, in the order given.
 */
export async function logAppliedMany(
  db: Kysely<Database>,
  at: { tenantId: number; storeId: number },
  changes: readonly AppliedChange[],
  timeZone: string,
  now: number,
): Promise<AppliedRecord[]> {
  if (changes.length === 0) return [];
  const productIds = [...new Set(changes.map((c) => c.product_id))];
  const tagsOf = groupBy(await repo.tagsShowingAny(db, at, productIds), (t) => t.product_id as number);
  const names = await repo.productNames(db, at, productIds);
  const rows: TagLogEntry[] = [];
  const out: AppliedRecord[] = [];
  for (const c of changes) {
    const effectiveAt = Number(c.effective_at);
    const detail: ScheduleLogDetail = {
      change: c.id,
      changes: JSON.parse(c.changes) as Record<string, unknown>,
      at: effectiveAt,
      localAt: toLocalTime(effectiveAt, timeZone),
      timeZone,
    };
    const json = JSON.stringify(detail);
    const tags = tagsOf.get(c.product_id) ?? [];
    for (const t of tags)
      rows.push({
        ...at,
        tagId: t.id,
        hardwareId: t.hardware_id,
        kind: SCHEDULE_TAG_LOG_KIND,
        rev: c.id,
        result: 'ok' as const,
        queuedAt: effectiveAt,
        finishedAt: now,
        detail: json,
      });
    out.push({ change: c, tags: tags.length, productName: names.get(c.product_id) ?? '' });
  }
  await appendTagLog(db, rows);
  return out;
}

/** Most products a notice's summary reads (the field names of a large batch). */
const SUMMARY_ITEMS = 200;

/**
 * The console notices of changes that took effect: one per user, store and batch (the changes one
 * form, import or ERP call made), to the user who scheduled them; changes the ERP API's key made
 * (no user) have nobody to tell. Answers the notices sent.
 */
export async function notifyApplied(
  db: Kysely<Database>,
  notices: Pick<Notices, 'toUser'>,
  records: readonly AppliedRecord[],
): Promise<Array<{ tenantId: number; userId: number; notice: ScheduleAppliedNotice }>> {
  const groups = groupBy(
    records.filter((r) => r.change.created_by !== null && r.change.created_by !== 0),
    ({ change: c }) => `${c.tenant_id}|${c.store_id}|${c.created_by}|${c.batch}`,
  );
  const out: Array<{ tenantId: number; userId: number; notice: ScheduleAppliedNotice }> = [];
  for (const list of groups.values()) {
    const first = (list[0] as AppliedRecord).change;
    const tenantId = first.tenant_id;
    const userId = first.created_by as number;
    const store = await findStore(db, { tenantId, userId: null }, first.store_id);
    const timeZone = (await timeZones(db, tenantId, [first.store_id])).get(first.store_id) ?? 'UTC';
    const at = list.reduce((t, r) => Math.min(t, Number(r.change.effective_at)), Number.POSITIVE_INFINITY);
    const items = list
      .slice(0, SUMMARY_ITEMS)
      .map((r) => ({ productName: r.productName, changes: JSON.parse(r.change.changes) as Record<string, unknown> }));
    const products = new Set(list.map((r) => r.change.product_id)).size;
    const summary = (lang: Language) => scheduleAppliedSummary(items, lang, products);
    const notice: ScheduleAppliedNotice = {
      type: 'schedule.applied',
      storeId: first.store_id,
      storeName: store?.name ?? '',
      ids: list.map((r) => r.change.id),
      products,
      tags: list.reduce((n, r) => n + r.tags, 0),
      at,
      localAt: toLocalTime(at, timeZone),
      timeZone,
      summary: { 'zh-CN': summary('zh-CN'), en: summary('en') },
    };
    notices.toUser(tenantId, userId, { ...notice });
    out.push({ tenantId, userId, notice });
  }
  return out;
}
