import { SHOP_LIST_LIMIT } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import { selectFilter } from '../../components/list/filters';
import { queryKeys } from '../../platform/queryKeys';
import { requestList } from '../../platform/request';
import { useUserStore } from '../../store/user';

/**
 * The logs' store filter (`storeId`): the stores the reader may see — the server lists a
 * store-scoped user's own only, and answers their rows only — or nothing without store.read.
 */
export function useStoreFilter(t: TFunction) {
  const canReadStores = useUserStore((s) => s.permissions.includes('store.read'));
  const stores = useQuery({
    queryKey: queryKeys.allStores(),
    queryFn: () => requestList('storeList', { page: 1, limit: SHOP_LIST_LIMIT }),
    enabled: canReadStores,
  });
  return (
    canReadStores && {
      ...selectFilter(
        t,
        'store',
        180,
        (stores.data?.rows ?? []).map((s) => ({ value: s.id, label: s.name })),
        { all: 'filter.allStores', search: true },
      ),
      name: 'storeId',
      loading: stores.isFetching,
    }
  );
}

/** The logs' store column: the store's name, or a dash for a row of no store. */
export function storeColumn(t: TFunction) {
  return {
    title: t('col.store'),
    dataIndex: 'storeName',
    width: 180,
    ellipsis: true,
    render: (v: string) => v || <Typography.Text type="secondary">—</Typography.Text>,
  };
}
