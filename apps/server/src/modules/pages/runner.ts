import { type PageWindow, pageWindow } from '@esl/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema';
import { tasksChanged } from '../../outbox/slots/enqueue';
import * as requests from '../../outbox/slots/requests';
import * as promotions from '../promotions/service';
import { timeZones } from '../stores/service';
import * as templates from '../templates/service';
import * as repo from './repository';

/*
 * What runs page schedules (docs/PAGES.md "Page schedules"), at each tick of the scheduler
 * (delivery/schedule). Durable: it keeps in the database which window each schedule sent ahead
 * (`armed_start`), to which tags and for which of their pictures (`page_schedule_tags`), and which
 * window's end it checked (`ended_start`); every step is a conditional write in one transaction
 * with the switch's request, so a restart neither misses a window (one under way is sent at once,
 * for what is left of it) nor sends one twice.
 *
 * - LEAD before a window starts, its switch goes to the store's tags drawn with the template as
 *   one `page` request with `at` = the start and the stay = the window (docs/PROTOCOL.md §5.15 rule
 *   5): each tag is handed the switch at a check-in before the start and changes page at the start
 *   on its own, and goes back to page 1 at the end by its own timer. No picture is sent. Sent
 *   after the start, the switch is made at once and its stay is what is left of the window.
 * - While the window is sent or under way, every RESCAN the store's tags are looked at again: a
 *   tag drawn with the template that was not sent the switch (bound later, or its template
 *   changed), or that has shown a new picture since (a new picture shows page 1 and drops a held
 *   switch), gets it — ahead, or at once for what is left of the window. Only tags that show their
 *   current picture: one still waiting for it would lose the switch to it.
 * - END_GRACE after the end, tags still reporting the page are sent page 1 (a tag that took the
 *   switch late, or whose timer was lost); once per window.
 */

/** How long before a window its switch is sent (the tags pick it up at a check-in before the start). */
export const LEAD_MS = 30 * 60_000;
/** How often the tags of a window sent or under way are looked at again. */
export const RESCAN_MS = 30_000;
/** How long after a window's end its tags' reports are trusted to say page 1. */
export const END_GRACE_MS = 90_000;

type Row = Awaited<ReturnType<typeof repo.enabledSchedules>>[number];

const weekdaysOf = (text: string) => text.split(',').filter(Boolean).map(Number);
const num = (v: number | string | null) => (v === null ? null : Number(v));
const operator = (s: Row, now: number): requests.Operator => ({
  tenantId: s.tenant_id,
  storeId: s.store_id,
  userId: null,
  now,
});

/**
 * Ends the window a schedule sent (when its switch was sent and its end not checked): page 1 now
 * for its tags that show the page (or were only handed it: a newer switch replaces a held one).
 * For an edit or a deletion, inside its transaction; the caller calls `tasksChanged()`.
 */
export async function backToFirst(trx: Kysely<Database>, s: Row, now: number): Promise<void> {
  const start = num(s.armed_start);
  const end = num(s.armed_end);
  if (start === null || end === null || num(s.ended_start) === start || now >= end + END_GRACE_MS) return;
  const tags = await repo.switchedTags(trx, s.id, start);
  // Before the end: every tag sent the switch (held or shown); after it: those still on the page.
  const back = tags.filter((t) => now < end || Number(t.shown_page) !== 1).map((t) => t.tag_id);
  if (back.length) await requests.showPageIn(trx, operator(s, now), back, { page: 1, stayS: 0 });
}

export interface PageRunner {
  run(): Promise<void>;
}

export function createPageRunner(db: Kysely<Database>, clock: () => number): PageRunner {
  /** When each schedule's tags were last looked at (in memory: a restart looks at once). */
  const scanned = new Map<number, number>();

  /** A window's end checked: its tags still on the page are sent page 1, once. */
  async function end(s: Row, now: number) {
    const start = num(s.armed_start);
    if (start === null) return;
    const tags = await repo.switchedTags(db, s.id, start);
    const still = tags.filter((t) => Number(t.shown_page) === s.page).map((t) => t.tag_id);
    const done = await db.transaction().execute(async (trx) => {
      if (!(await repo.close(trx, s.id, start))) return false;
      if (still.length) await requests.showPageIn(trx, operator(s, now), still, { page: 1, stayS: 0 });
      return still.length > 0;
    });
    if (done) tasksChanged();
  }

  /** The tags of the store drawn with the schedule's template that show their current picture. */
  async function tagsOf(s: Row, now: number) {
    const at = { tenantId: s.tenant_id, storeId: s.store_id };
    const rows = (await repo.storeTags(db, at)).filter(
      (t) => t.shown_hash !== null && (t.desired_hash === null || t.desired_hash === t.shown_hash),
    );
    if (rows.length === 0) return [];
    const bound = rows.flatMap((r) => (r.product_id === null ? [] : [r.product_id]));
    const promos = await promotions.promotionsAt(db, at, bound, now);
    const labels = await templates.resolveTemplates(
      db,
      rows.map((r) => ({
        id: r.id,
        ...at,
        model: r.model,
        colour: r.colour,
        productId: r.product_id,
        promotion: r.product_id !== null && promos.has(r.product_id),
      })),
    );
    return rows.filter((r) => labels.get(r.id)?.templateId === s.template_id);
  }

  /** Sends window `w`'s switch to the tags that lack it (all of them when the window is new). */
  async function arm(s: Row, w: PageWindow, now: number) {
    const fresh = num(s.armed_start) !== w.start;
    const mine = await tagsOf(s, now);
    const sent = fresh
      ? new Map<number, string>()
      : new Map((await repo.switchedTags(db, s.id, w.start)).map((r) => [r.tag_id, r.hash]));
    const todo = mine.filter((t) => sent.get(t.id) !== t.shown_hash);
    if (!fresh && todo.length === 0) return;
    // Always the window's start and whole length: sent (or sent again) after the start, the
    // dispatcher shortens the stay by the time gone (delivery/tasks/dispatch.ts), so it ends with
    // the window whenever the switch goes out.
    const stayS = Math.min(86_400, Math.max(1, Math.ceil((w.end - w.start) / 1000)));
    const queued = await db.transaction().execute(async (trx) => {
      if (fresh && !(await repo.arm(trx, s.id, num(s.armed_start), w.start, w.end))) return false;
      if (todo.length === 0) return false;
      await requests.showPageIn(
        trx,
        operator(s, now),
        todo.map((t) => t.id),
        { page: s.page, stayS, at: w.start },
      );
      await repo.recordSwitched(
        trx,
        s.id,
        w.start,
        todo.map((t) => ({ id: t.id, hash: t.shown_hash ?? '' })),
      );
      return true;
    });
    if (queued) tasksChanged();
  }

  return {
    async run() {
      const now = clock();
      // Ends first: a window's end is checked before the next one is sent.
      for (const s of await repo.unendedSchedules(db)) {
        const e = num(s.armed_end);
        if (e !== null && now >= e + END_GRACE_MS) await end(s, now);
      }
      const zones = new Map<string, string>();
      for (const s of await repo.enabledSchedules(db)) {
        const key = `${s.tenant_id}:${s.store_id}`;
        let tz = zones.get(key);
        if (tz === undefined) {
          tz = (await timeZones(db, s.tenant_id, [s.store_id])).get(s.store_id) ?? 'UTC';
          zones.set(key, tz);
        }
        const w = pageWindow({ weekdays: weekdaysOf(s.weekdays), from: s.from_time, to: s.to_time }, tz, now);
        if (!w || now < w.start - LEAD_MS) continue;
        const fresh = num(s.armed_start) !== w.start;
        if (!fresh && now - (scanned.get(s.id) ?? Number.NEGATIVE_INFINITY) < RESCAN_MS) continue;
        // The window before, not checked yet (windows close together): its end first.
        const prevEnd = num(s.armed_end);
        if (fresh && prevEnd !== null && num(s.ended_start) !== num(s.armed_start) && now >= prevEnd) {
          await end(s, now);
          continue; // read again at the next tick
        }
        scanned.set(s.id, now);
        await arm(s, w, now);
      }
    },
  };
}
