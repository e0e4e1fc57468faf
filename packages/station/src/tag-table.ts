import type { TagEntry } from '@esl/contract/protocol';

interface Row {
  entry: TagEntry;
  /** What was last reported about the tag (null: nothing on this connection yet). */
  reported: TagEntry | null;
  /** Local virtual time of that report. */
  reportedAt: number;
}

const wakeMs = (e: TagEntry) => (e.wakeS ?? 40) * 1000;

/**
 * What a station knows about the tags it hears, and which of them its next report must carry
 * (docs/PROTOCOL.md 5.6): tags heard since their last report that changed, or whose last report is
 * older than twice their wake interval; in a full report, every tag heard within that time.
 */
export class TagTable {
  private readonly rows = new Map<string, Row>();

  /**
   * A check-in: the tag's figures as the station just heard them. A wake-up other than the timer
   * (a button, NFC, a boot) is news until a report carried it: a check-in or transfer heard
   * before the next report keeps its reason, so the press is not lost (the tag took its label at
   * the press, say, and the transfer's record came before the report).
   */
  record(entry: TagEntry): void {
    const row = this.rows.get(entry.id);
    if (!row) {
      this.rows.set(entry.id, { entry, reported: null, reportedAt: 0 });
      return;
    }
    const woke = row.entry.reason;
    const unreported = row.reported !== row.entry;
    const plain = entry.reason === undefined || entry.reason === 'timer';
    row.entry = unreported && plain && woke !== undefined && woke !== 'timer' ? { ...entry, reason: woke } : entry;
  }

  /** After a page switch (§5.15): the tag shows `page` (1: its first) since `seenAt`. */
  paged(id: string, page: number, seenAt: number): void {
    const row = this.rows.get(id);
    if (!row) return;
    const { page: _old, ...rest } = row.entry;
    row.entry = page > 1 ? { ...rest, page, seenAt } : { ...rest, seenAt };
  }

  /** After a transfer: the tag confirmed holding `ver` at `seenAt`. */
  confirm(id: string, ver: string, seenAt: number): void {
    const row = this.rows.get(id);
    if (row) row.entry = { ...row.entry, ver, seenAt };
  }

  get(id: string): TagEntry | undefined {
    return this.rows.get(id)?.entry;
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  /** Heard within twice its wake interval (server time). */
  present(id: string, serverNow: number): boolean {
    const e = this.rows.get(id)?.entry;
    return e !== undefined && serverNow - e.seenAt <= 2 * wakeMs(e);
  }

  countPresent(serverNow: number): number {
    let n = 0;
    for (const r of this.rows.values()) if (serverNow - r.entry.seenAt <= 2 * wakeMs(r.entry)) n++;
    return n;
  }

  /** A new connection: everything is news to it. */
  forgetReports(): void {
    for (const r of this.rows.values()) r.reported = null;
  }

  clear(): void {
    this.rows.clear();
  }

  /** The entries the next report carries, marked reported at `now` (local virtual time). */
  takeDue(now: number, serverNow: number, full: boolean): TagEntry[] {
    const due: TagEntry[] = [];
    for (const r of this.rows.values()) {
      const e = r.entry;
      const take = full
        ? serverNow - e.seenAt <= 2 * wakeMs(e)
        : e.seenAt > (r.reported?.seenAt ?? -1) && (changed(r.reported, e) || now - r.reportedAt >= 2 * wakeMs(e));
      if (!take) continue;
      r.reported = e;
      r.reportedAt = now;
      due.push(e);
    }
    return due;
  }
}

/** A change worth reporting before the refresh is due. */
export function changed(a: TagEntry | null, b: TagEntry): boolean {
  if (!a) return true;
  return (
    a.ver !== b.ver ||
    a.fw !== b.fw ||
    a.hw !== b.hw ||
    a.wakeS !== b.wakeS ||
    (a.page ?? 1) !== (b.page ?? 1) ||
    (b.reason !== 'timer' && b.seenAt !== a.seenAt) ||
    Math.abs(a.battMv - b.battMv) >= 20 ||
    Math.abs((a.temp ?? 0) - (b.temp ?? 0)) >= 0.5 ||
    Math.abs(a.rssi - b.rssi) >= 3
  );
}
