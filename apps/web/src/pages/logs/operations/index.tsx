import { CALL_NAMES, CALLS, type CallName } from '@esl/contract';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { type DateRange, datesFilter, rangeBounds } from '../../../components/list/datesFilter';
import { selectFilter, textFilter } from '../../../components/list/filters';
import { ListPage } from '../../../components/list/ListPage';
import { useListQuery } from '../../../components/list/useListQuery';
import { language } from '../../../platform/i18n';
import { parseTime } from '../../../utils/time';
import { trimmedOrUndefined } from '../../shared/rules';
import { storeColumn, useStoreFilter } from '../storeFilter';

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
  const list = useListQuery('opLog', {
    toFilter: (v: FilterValues) => ({
      username: trimmedOrUndefined(v.username),
      call: v.call || undefined,
      storeId: v.storeId || undefined,
      ...rangeBounds(v.range),
    }),
  });
  const storeFilter = useStoreFilter(t);

  return (
    <ListPage
      list={list}
      ns="logs"
      title={t('opTitle')}
      emptyHint={t('emptyHint.op')}
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
        storeFilter,
        datesFilter('range', t('filter.time')),
      ]}
      columns={[
        { title: t('col.time'), dataIndex: 'time', width: 170, render: (v: number) => parseTime(v) },
        { title: t('col.username'), dataIndex: 'username', width: 120, ellipsis: true },
        storeColumn(t),
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
