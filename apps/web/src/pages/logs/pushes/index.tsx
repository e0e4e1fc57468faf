import { PUSH_SOURCE_LABELS, PUSH_SOURCES, type PushLog, type PushSource } from '@esl/contract';
import { Popover, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type DateRange, datesFilter, rangeBounds } from '../../../components/list/datesFilter';
import { selectFilter } from '../../../components/list/filters';
import { ListPage } from '../../../components/list/ListPage';
import { useListQuery } from '../../../components/list/useListQuery';
import { language } from '../../../platform/i18n';
import { toThousandFilter } from '../../../utils/format';
import { parseTime } from '../../../utils/time';
import { storeScreen } from '../../shared/StoreRequired';

/** The source filter's choice that shows every row, the callback deliveries too. */
const EVERY = 'every';

interface FilterValues {
  source?: PushSource | typeof EVERY;
  range?: DateRange;
}

const SOURCE_COLOURS: Record<PushSource, string> = {
  console: 'blue',
  import: 'purple',
  api: 'cyan',
  schedule: 'gold',
  callback: 'magenta',
};

const dash = <Typography.Text type="secondary">—</Typography.Text>;

/** Thousands separated, as the dashboard shows figures. */
const count = (n: number) => toThousandFilter(n);

export function pushLogFilter(v: Partial<FilterValues>) {
  return {
    source: v.source && v.source !== EVERY ? v.source : undefined,
    // Callback deliveries are a kind of their own: shown when asked for (issue 27 item 5).
    hideCallbacks: !v.source,
    ...rangeBounds(v.range),
  };
}

export default storeScreen('logs', PushLogList);

function Exceptions({ row }: { row: PushLog }) {
  const { t } = useTranslation('logs');
  if (row.exceptions.length === 0) return dash;
  const more = row.exceptionCount - 1;
  return (
    <Popover
      title={t('push.exceptionsOf', { kept: row.exceptions.length, count: row.exceptionCount })}
      content={
        <ol style={{ maxWidth: 480, maxHeight: 320, overflow: 'auto', margin: 0, paddingInlineStart: 20 }}>
          {row.exceptions.map((e, i) => (
            // The messages are a stored list: their order is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list that never reorders
            <li key={i} style={{ wordBreak: 'break-word' }}>
              {e}
            </li>
          ))}
        </ol>
      }
    >
      <Typography.Text type="danger" ellipsis style={{ maxWidth: '100%' }}>
        {row.exceptions[0]}
        {more > 0 ? ` ${t('push.more', { count: more })}` : ''}
      </Typography.Text>
    </Popover>
  );
}

function PushLogList({ storeId }: { storeId: number }) {
  const { t } = useTranslation('logs');
  const list = useListQuery('pushLog', { storeId, toFilter: pushLogFilter });

  return (
    <ListPage
      list={list}
      ns="logs"
      title={t('pushTitle')}
      emptyHint={t('emptyHint.push')}
      formName="pushLogFilter"
      testId="push-log"
      filters={[
        selectFilter(
          t,
          'source',
          190,
          [
            ...PUSH_SOURCES.map((s) => ({ value: s, label: PUSH_SOURCE_LABELS[s][language] })),
            { value: EVERY, label: t('filter.everySource') },
          ],
          { all: 'filter.allSources' },
        ),
        datesFilter('range', t('filter.started')),
      ]}
      columns={[
        { title: t('col.started'), dataIndex: 'startedAt', width: 160, render: (v: number) => parseTime(v) },
        {
          title: t('col.source'),
          dataIndex: 'source',
          width: 100,
          render: (v: PushSource, row: PushLog) => <Tag color={SOURCE_COLOURS[v]}>{row.sourceName}</Tag>,
        },
        {
          title: t('col.pushedBy'),
          dataIndex: 'username',
          width: 110,
          ellipsis: true,
          render: (v: string) => v || dash,
        },
        { title: t('col.products'), dataIndex: 'products', width: 85, align: 'right', render: count },
        { title: t('col.tagsAffected'), dataIndex: 'tagsAffected', width: 85, align: 'right', render: count },
        { title: t('col.rendered'), dataIndex: 'rendered', width: 100, align: 'right', render: count },
        {
          title: t('col.pushFailed'),
          dataIndex: 'failed',
          width: 80,
          align: 'right',
          render: (v: number) => (v > 0 ? <Typography.Text type="danger">{count(v)}</Typography.Text> : v),
        },
        {
          title: t('col.exceptions'),
          dataIndex: 'exceptions',
          ellipsis: { showTitle: false },
          render: (_: string[], row: PushLog) => <Exceptions row={row} />,
        },
        {
          title: t('col.pushFinished'),
          dataIndex: 'finishedAt',
          width: 160,
          render: (v: number | null) => (v === null ? <Tag color="processing">{t('push.running')}</Tag> : parseTime(v)),
        },
      ]}
      scrollX={1095}
    />
  );
}
