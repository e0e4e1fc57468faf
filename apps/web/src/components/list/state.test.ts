import { describe, expect, it } from 'vitest';
import { type ListState, searched, showsLoading, sorted, sortOrderOf, tableSort } from './state';

type Filter = { name?: string };
const base: ListState<Filter, 'name' | 'id'> = { filter: {}, paging: { page: 1, limit: 20 }, sort: null };

describe('searched', () => {
  it('asks to fetch again when Search repeats what is shown (same filter, page 1)', () => {
    expect(searched(base, {}).refetch).toBe(true);
    const shown = { ...base, filter: { name: 'a' } };
    expect(searched(shown, { name: 'a' }).refetch).toBe(true);
  });

  it('leaves the fetch to the new cache key when the filter or the page changes', () => {
    expect(searched(base, { name: 'a' }).refetch).toBe(false);
    const later = { ...base, paging: { page: 3, limit: 20 } };
    const { next, refetch } = searched(later, {});
    expect(refetch).toBe(false);
    expect(next.paging).toEqual({ page: 1, limit: 20 });
  });

  it('treats an unset filter field like a missing one, as the cache key does', () => {
    expect(searched(base, { name: undefined }).refetch).toBe(true);
  });
});

describe('sorted', () => {
  it('goes back to page 1 with the new sort', () => {
    const later = { ...base, paging: { page: 4, limit: 50 } };
    expect(sorted(later, { sort: 'name', order: 'asc' })).toEqual({
      filter: {},
      paging: { page: 1, limit: 50 },
      sort: { sort: 'name', order: 'asc' },
    });
  });
});

describe('sortOrderOf', () => {
  it("gives antd's direction for the sorted column only", () => {
    expect(sortOrderOf({ sort: 'name', order: 'asc' }, 'name')).toBe('ascend');
    expect(sortOrderOf({ sort: 'name', order: 'desc' }, 'name')).toBe('descend');
    expect(sortOrderOf({ sort: 'name', order: 'desc' }, 'id')).toBeNull();
    expect(sortOrderOf(null, 'id')).toBeNull();
  });
});

describe('tableSort', () => {
  const sortable = ['price', undefined, 'name'] as const;

  it('sorts by a key a column declares, in the direction clicked', () => {
    expect(tableSort(sortable, 'price', 'ascend')).toEqual({ sort: 'price', order: 'asc' });
    expect(tableSort(sortable, 'name', 'descend')).toEqual({ sort: 'name', order: 'desc' });
  });

  it('sorts only by keys the server knows, and goes back to its default when the sort is cleared', () => {
    expect(tableSort(sortable, 'unit', 'ascend')).toBeNull();
    expect(tableSort(sortable, undefined, 'ascend')).toBeNull();
    expect(tableSort(sortable, 'price', null)).toBeNull();
  });
});

describe('the list spinner', () => {
  const base = { quiet: true, fetching: true, hasData: true, placeholder: false, asked: false };
  it('stays off for a quiet list refreshing itself, and on for what the user asked for', () => {
    expect(showsLoading(base)).toBe(false);
    expect(showsLoading({ ...base, asked: true })).toBe(true);
    expect(showsLoading({ ...base, placeholder: true })).toBe(true);
    expect(showsLoading({ ...base, hasData: false })).toBe(true);
    expect(showsLoading({ ...base, fetching: false, asked: true })).toBe(false);
  });
  it('shows every fetch of an ordinary list', () => {
    expect(showsLoading({ ...base, quiet: false })).toBe(true);
    expect(showsLoading({ ...base, quiet: false, fetching: false })).toBe(false);
  });
});
