import { CALL_NAMES, CALLS, type CallName, SHOP_LIST_LIMIT } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type DateRange, rangeBounds, selectFilter, textFilter } from '../../../components/list/filters';
import { ListPage } from '../../../components/list/ListPage';
import { useListQuery } from '../../../components/list/useListQuery';
import { language } from '../../../platform/i18n';
import { queryKeys } from '../../../platform/queryKeys';
import { requestList } from '../../../platform/request';
import { useUserStore } from '../../../store/user';
import { parseTime } from '../../../utils/time';
import { trimmedOrUndefined } from '../../shared/rules';

interface FilterValues {
  username?: string;
  call?: string;
  storeId?: number;
  range?: DateRange;
}

/** Only calls that change data write operation-log rows, so only they are offered as a filter. */
const CHANGING_CALLS = (Object.keys(CALLS) as CallName[]).filter((name) => CALLS[name].changes);

export default function OpLogPage() {
  const { t } = useTranslation('logs');
  const canReadStores = useUserStore((s) => s.permissions.includes('store.read'));
  const list = useListQuery('opLog', {
    toFilter: (v: FilterValues) => ({
      username: trimmedOrUndefined(v.username),
      call: v.call || undefined,
      storeId: v.storeId || undefined,
      ...rangeBounds(v.range),
    }),
  });
  const stores = useQuery({
    queryKey: queryKeys.allStores(),
    queryFn: () => requestList('storeList', { page: 1, limit: SHOP_LIST_LIMIT }),
    enabled: canReadStores,
  });

  return (
    <ListPage
      list={list}
      ns="logs"
      title={t('opTitle')}
      formName="opLogFilter"
      filters={[
        textFilter(t, 'username', 150),
        selectFilter(
          t,
          'call',
          240,
          CHANGING_CALLS.map((name) => ({ value: CALLS[name].path, label: CALL_NAMES[name][language] })),
          { all: 'filter.allCalls', search: true },
        ),
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
        },
        { kind: 'dates', name: 'range', label: t('filter.time') },
      ]}
      columns={[
        { title: t('col.time'), dataIndex: 'time', width: 170, render: (v: number) => parseTime(v) },
        { title: t('col.username'), dataIndex: 'username', width: 120, ellipsis: true },
        {
          title: t('col.store'),
          dataIndex: 'storeName',
          width: 140,
          ellipsis: true,
          render: (v: string) => v || <Typography.Text type="secondary">—</Typography.Text>,
        },
        {
          title: t('col.call'),
          dataIndex: 'operation',
          width: 220,
          ellipsis: true,
          // The server names the operation in the reader's language; the path stays at hand for support.
          render: (v: string, row) => <span title={row.call}>{v}</span>,
        },
        { title: t('col.target'), dataIndex: 'target', ellipsis: true },
        {
          title: t('col.result'),
          dataIndex: 'code',
          width: 120,
          render: (code: number, row) =>
            code === 0 ? (
              <Tag color="success">{t('result.ok')}</Tag>
            ) : (
              <Tooltip title={row.msg}>
                <Tag color="error">{t('result.failed', { code })}</Tag>
              </Tooltip>
            ),
        },
        { title: t('col.ip'), dataIndex: 'ip', width: 140, ellipsis: true },
      ]}
      scrollX={1100}
    />
  );
}
