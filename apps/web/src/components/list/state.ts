import { hashKey } from '@tanstack/react-query';
import type { Paging } from './paging';

/** A sort the server applies: the column's key and the direction. */
export interface SortState<S extends string> {
  sort: S;
  order: 'asc' | 'desc';
}

/** What a list screen asks for: its filter, the page, the sort. */
export interface ListState<F, S extends string> {
  filter: F;
  paging: Paging;
  sort: SortState<S> | null;
}

/**
 * Pressing Search (or Reset): the new filter from page 1. When that asks exactly what is shown
 * already, the cache key does not change and nothing would be fetched, so `refetch` says the
 * caller must ask again itself: a user pressing Search expects fresh rows.
 */
export function searched<F, S extends string>(
  state: ListState<F, S>,
  filter: F,
): { next: ListState<F, S>; refetch: boolean } {
  const next = { ...state, filter, paging: { ...state.paging, page: 1 } };
  return { next, refetch: sameRequest(state, next) };
}

/** A click on a sortable header: the new sort (null: back to the server's default) from page 1. */
export function sorted<F, S extends string>(state: ListState<F, S>, sort: SortState<S> | null): ListState<F, S> {
  return { ...state, sort, paging: { ...state.paging, page: 1 } };
}

/** Whether two states ask the server the same (so share one cache entry). */
export function sameRequest<F, S extends string>(a: ListState<F, S>, b: ListState<F, S>): boolean {
  return hashKey([a.filter, a.paging, a.sort]) === hashKey([b.filter, b.paging, b.sort]);
}

/** antd's sort direction for a column, from the list's sort. */
export function sortOrderOf<S extends string>(sort: SortState<S> | null, key: S): 'ascend' | 'descend' | null {
  if (sort?.sort !== key) return null;
  return sort.order === 'asc' ? 'ascend' : 'descend';
}

/**
 * The sort a header click asks for: only a column that declares a server sort key sorts (any
 * other key the table reports is ignored); no direction means the server's default.
 */
export function tableSort<S extends string>(
  sortable: readonly (S | undefined)[],
  columnKey: unknown,
  order: 'ascend' | 'descend' | null | undefined,
): SortState<S> | null {
  const sort = sortable.find((s) => s !== undefined && s === columnKey);
  if (sort === undefined || !order) return null;
  return { sort, order: order === 'ascend' ? 'asc' : 'desc' };
}

/**
 * Whether a list shows its spinner. A quiet list (refreshed by a timer or by notices) shows it only
 * while it has nothing to show, shows another page's rows, or fetches what the user asked for; any
 * other list whenever it fetches.
 */
export function showsLoading(f: {
  quiet: boolean;
  fetching: boolean;
  hasData: boolean;
  placeholder: boolean;
  asked: boolean;
}): boolean {
  if (!f.fetching) return false;
  return !f.quiet || !f.hasData || f.placeholder || f.asked;
}
