import type { BodyOf, DataOf, ListCallName } from '@esl/contract';
import { keepPreviousData, type UseQueryResult, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { type Area, isStoreArea, LIST_AREAS, queryKeys } from '../../platform/queryKeys';
import { requestList } from '../../platform/request';
import { type Paging, useKeepPageInRange } from './paging';
import { type ListState, type SortState, searched, showsLoading, sorted } from './state';

/** What a list call takes besides paging and sort: its filters. */
export type FilterOf<N extends ListCallName> = Omit<BodyOf<N>, 'page' | 'limit' | 'sort' | 'order'>;
/** The column keys a list call can sort by (never for a list the server does not sort). */
export type SortOf<N extends ListCallName> = BodyOf<N> extends { sort?: infer S } ? Extract<S, string> : never;
export type RowOf<N extends ListCallName> = DataOf<N>;

export interface ListQueryOptions<N extends ListCallName, V> {
  /** The store whose rows these are, for the per-store lists (base stations, tags, products). */
  storeId?: number;
  /** The filter form's values as the call's filters (trimmed, unset choices left out). */
  toFilter: (values: Partial<V>) => FilterOf<N>;
  /** Rows a page at first. */
  limit?: number;
  /** Ask again this often (runtime figures that change by themselves), in milliseconds. */
  refetchInterval?: number;
  /**
   * Kept current by notices (the tags page): a refetch the user did not ask for shows no
   * spinner, so the table does not flicker with every report; a search, a page or a change does.
   */
  live?: boolean;
  /** Other areas (of the same store) whose answers show this list's data, invalidated with it. */
  related?: readonly Area[];
}

/** What `<ListPage>` shows and drives: rows of type `Row`, sortable by `S`, filtered by the form's `V`. */
export interface ListView<Row, S extends string, V> {
  rows: Row[];
  count: number;
  /** Whether a fetch shows as the table's spinner (a list refreshing itself on a timer does not). */
  loading: boolean;
  /** The last fetch failed (the table says so instead of "no rows"). */
  failed: boolean;
  /** The rows are narrowed by filters the user set (an empty list then says to change them). */
  filtered: boolean;
  paging: Paging;
  setPaging: (paging: Paging) => void;
  sort: SortState<S> | null;
  setSort: (sort: SortState<S> | null) => void;
  /** Search with the form's values: page 1, selection cleared, and always a fresh answer. */
  search: (values: Partial<V>) => void;
  selected: number[];
  setSelected: (ids: number[]) => void;
}

/** One list screen's state and rows, typed from the contract's list call `N`. */
export interface ListQuery<N extends ListCallName, V> extends ListView<RowOf<N>, SortOf<N>, V> {
  call: N;
  query: UseQueryResult<{ rows: RowOf<N>[]; count: number }>;
  /** The filter applied, with the sort: what an export of "the current list" sends. */
  body: FilterOf<N> & Partial<SortState<SortOf<N>>>;
  /**
   * After a change: refetches this list (and the related areas) and drops `gone` ids from the
   * selection. A page emptied by a delete steps back to the last page with rows by itself.
   */
  changed: (gone?: readonly number[]) => void;
}

/**
 * The state of a list screen, typed from the contract's list call `call`: what the filter form
 * holds (`V`) becomes the call's filters through `toFilter`; the page, its size and the sort are
 * kept here; the rows are cached under `queryKeys.list`.
 */
export function useListQuery<N extends ListCallName, V>(call: N, options: ListQueryOptions<N, V>): ListQuery<N, V> {
  const { storeId, toFilter, refetchInterval } = options;
  const queryClient = useQueryClient();
  const [state, setState] = useState<ListState<FilterOf<N>, SortOf<N>>>(() => ({
    filter: toFilter({}),
    paging: { page: 1, limit: options.limit ?? 20 },
    sort: null,
  }));
  // The filters the list starts with (the form's defaults), to tell a filtered list from a whole one.
  const [unfiltered] = useState(() => JSON.stringify(state.filter));
  const [selected, setSelected] = useState<number[]>([]);
  // The user asked for the fetch under way (search, change): it shows even on a quiet list.
  const [asked, setAsked] = useState(false);

  const body = { ...state.filter, ...(state.sort ?? {}) };
  // The filters, sort and paging of the contract's list body; TypeScript cannot see that a spread
  // of its parts is the body of a generic call.
  const request = { ...body, ...state.paging } as BodyOf<N>;
  const query = useQuery({
    queryKey: queryKeys.list(call, storeId, request),
    queryFn: () => requestList(call, request),
    placeholderData: keepPreviousData,
    refetchInterval,
  });

  const setPaging = useCallback(
    (next: Paging | ((p: Paging) => Paging)) =>
      setState((s) => ({ ...s, paging: typeof next === 'function' ? next(s.paging) : next })),
    [],
  );
  useKeepPageInRange(query.data?.count, state.paging, setPaging);
  useEffect(() => {
    if (!query.isFetching) setAsked(false);
  }, [query.isFetching]);
  const quiet = refetchInterval !== undefined || options.live === true;

  const search = (values: Partial<V>) => {
    const { next, refetch } = searched(state, toFilter(values));
    setState(next);
    // A new filter starts a new selection: rows chosen under the old one would be out of sight.
    setSelected([]);
    setAsked(true);
    if (refetch) void query.refetch();
  };

  const changed = (gone: readonly number[] = []) => {
    if (gone.length > 0) setSelected((ids) => ids.filter((id) => !gone.includes(id)));
    setAsked(true);
    const area = LIST_AREAS[call];
    for (const each of [area, ...(options.related ?? [])]) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.area(each, isStoreArea(each) ? storeId : undefined) });
    }
  };

  return {
    call,
    query,
    rows: query.data?.rows ?? [],
    count: query.data?.count ?? 0,
    failed: query.isError,
    filtered: JSON.stringify(state.filter) !== unfiltered,
    loading: showsLoading({
      quiet,
      fetching: query.isFetching,
      hasData: query.data !== undefined,
      placeholder: query.isPlaceholderData,
      asked,
    }),
    paging: state.paging,
    setPaging,
    sort: state.sort,
    setSort: (sort) => setState((s) => sorted(s, sort)),
    body,
    search,
    selected,
    setSelected,
    changed,
  };
}
