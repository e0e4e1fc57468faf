import type { TablePaginationConfig } from 'antd';

/**
 * A list table's pager: the page shown, its size (changeable), the total and "N things" beside it.
 * `setPaging` receives the page and size the user picked.
 */
export function listPagination(
  paging: { page: number; limit: number },
  total: number,
  setPaging: (paging: { page: number; limit: number }) => void,
  showTotal: (total: number) => string,
): TablePaginationConfig {
  return {
    current: paging.page,
    pageSize: paging.limit,
    total,
    showSizeChanger: true,
    showTotal,
    onChange: (page, limit) => setPaging({ page, limit }),
  };
}
