import { type Dispatch, type SetStateAction, useEffect } from 'react';

export interface Paging {
  page: number;
  limit: number;
}

/** The last page that has rows, at least 1. */
export function lastPage(count: number, limit: number): number {
  return Math.max(1, Math.ceil(count / limit));
}

/**
 * When the rows of the shown page are gone (its last rows deleted, or fewer rows after a change
 * elsewhere), steps back to the last page that has rows instead of showing an empty one.
 */
export function useKeepPageInRange(
  count: number | undefined,
  paging: Paging,
  setPaging: Dispatch<SetStateAction<Paging>>,
): void {
  useEffect(() => {
    if (count === undefined) return;
    const last = lastPage(count, paging.limit);
    if (paging.page > last) setPaging((p) => ({ ...p, page: last }));
  }, [count, paging.page, paging.limit, setPaging]);
}
