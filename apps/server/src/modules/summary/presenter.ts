import {
  findTagModel,
  type ShopRef,
  type ShopStatic,
  TAG_CHANGE_CALLS,
  TAG_CHANGE_KINDS,
  TAG_STATUSES,
  type TagChangeDay,
  type TagChangeKind,
  type TagModelCount,
  TagStatus,
  type TagStoreCount,
} from '@esl/contract';
import type { DbCount } from './repository';

const num = (n: DbCount) => Number(n);

export interface ShopFigures {
  store: ShopRef;
  stations: { online: number | string; n: DbCount }[];
  tags: { status: string; n: DbCount; bound: DbCount }[];
  products: DbCount;
  templates: DbCount;
  visible: { stores: number; stations: DbCount; tags: DbCount; products: DbCount };
  delivery: {
    /** Task slots per state. */
    tasks: { state: string; n: DbCount }[];
    /** Tag-log rows of the last 24 h per result. */
    results: { result: string; n: DbCount }[];
    p50LatencyMs: number | null;
  };
}

/** Waiting at the server (to render or to send), and out at a station. */
const QUEUED_STATES = new Set(['render', 'queued']);
const IN_FLIGHT_STATES = new Set(['sent', 'accepted']);
/**
 * Work done: a skip is not counted (the tag already showed the label, nothing was sent), so the
 * figure means one thing, tasks carried out (issue 27 item 9).
 */
const DONE_RESULTS = new Set(['ok']);

function presentDelivery(d: ShopFigures['delivery']): ShopStatic['delivery'] {
  const count = <R extends { n: DbCount }>(rows: R[], keep: (r: R) => boolean) =>
    rows.filter(keep).reduce((sum, r) => sum + num(r.n), 0);
  return {
    queued: count(d.tasks, (r) => QUEUED_STATES.has(r.state)),
    inFlight: count(d.tasks, (r) => IN_FLIGHT_STATES.has(r.state)),
    done24h: count(d.results, (r) => DONE_RESULTS.has(r.result)),
    failed24h: count(d.results, (r) => r.result === 'failed'),
    // Seconds, one decimal.
    p50LatencyS: d.p50LatencyMs === null ? null : Math.round(d.p50LatencyMs / 100) / 10,
  };
}

/** A status the contract does not know counts as `unknown`, as the tag list shows it. */
function statusOf(raw: string): TagStatus {
  const parsed = TagStatus.safeParse(raw);
  return parsed.success ? parsed.data : 'unknown';
}

export function presentShopStatic(f: ShopFigures): ShopStatic {
  const online = f.stations.filter((r) => Number(r.online) === 1).reduce((sum, r) => sum + num(r.n), 0);
  const stations = f.stations.reduce((sum, r) => sum + num(r.n), 0);
  const byStatus = new Map<TagStatus, number>(TAG_STATUSES.map((s) => [s, 0]));
  let tags = 0;
  let bound = 0;
  for (const r of f.tags) {
    const status = statusOf(r.status);
    byStatus.set(status, (byStatus.get(status) ?? 0) + num(r.n));
    tags += num(r.n);
    bound += num(r.bound);
  }
  return {
    store: f.store,
    stations: { total: stations, online, offline: stations - online },
    tags: {
      total: tags,
      bound,
      unbound: tags - bound,
      byStatus: TAG_STATUSES.map((status) => ({ status, count: byStatus.get(status) ?? 0 })),
    },
    products: num(f.products),
    templates: num(f.templates),
    visible: {
      stores: f.visible.stores,
      stations: num(f.visible.stations),
      tags: num(f.visible.tags),
      products: num(f.visible.products),
    },
    delivery: presentDelivery(f.delivery),
  };
}

/** Most tags first; equal counts by catalogue code. */
export function presentModels(rows: { model: string; n: DbCount }[]): TagModelCount[] {
  return rows
    .map((r) => ({ model: r.model, name: findTagModel(r.model)?.name ?? r.model, count: num(r.n) }))
    .sort((a, b) => b.count - a.count || a.model.localeCompare(b.model));
}

/** Every store in `stores` (the caller's, by id), most tags first; equal counts by store id. */
export function presentStores(stores: ShopRef[], rows: { store_id: number; n: DbCount }[]): TagStoreCount[] {
  const counts = new Map(rows.map((r) => [Number(r.store_id), num(r.n)]));
  return stores
    .map((s) => ({ storeId: s.id, name: s.name, count: counts.get(s.id) ?? 0 }))
    .sort((a, b) => b.count - a.count || a.storeId - b.storeId);
}

const KIND_OF_CALL = new Map<string, TagChangeKind>(
  TAG_CHANGE_KINDS.flatMap((kind) => TAG_CHANGE_CALLS[kind].map((path) => [path, kind] as const)),
);

/** One entry per day of the window, oldest first, zeros included. */
export function presentChanges(
  dates: string[],
  rows: { day: DbCount; call: string; n: DbCount }[],
  deliveries: { day: DbCount; result: string; n: DbCount }[] = [],
): TagChangeDay[] {
  const days: TagChangeDay[] = dates.map((date) => ({
    date,
    count: 0,
    binding: 0,
    tags: 0,
    products: 0,
    delivered: 0,
    failed: 0,
  }));
  for (const r of deliveries) {
    const day = days[num(r.day)];
    if (!day) continue;
    if (r.result === 'ok') day.delivered += num(r.n);
    else if (r.result === 'failed') day.failed += num(r.n);
  }
  for (const r of rows) {
    const day = days[num(r.day)];
    const kind = KIND_OF_CALL.get(r.call);
    if (!day || !kind) continue;
    day[kind] += num(r.n);
    day.count += num(r.n);
  }
  return days;
}
