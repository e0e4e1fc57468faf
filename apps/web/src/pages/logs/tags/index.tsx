import { TAG_LOG_RESULT_LABELS, TAG_LOG_RESULTS, type TagLog, type TagLogResult } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type DateRange, datesFilter, rangeBounds } from '../../../components/list/datesFilter';
import { selectFilter, textFilter } from '../../../components/list/filters';
import { ListPage } from '../../../components/list/ListPage';
import { useListQuery } from '../../../components/list/useListQuery';
import { language } from '../../../platform/i18n';
import { queryKeys } from '../../../platform/queryKeys';
import { requestList } from '../../../platform/request';
import { useUserStore } from '../../../store/user';
import { parseTime } from '../../../utils/time';
import { trimmedOrUndefined } from '../../shared/rules';
import { storeScreen } from '../../shared/StoreRequired';

/** The result filter's choice that shows every row, the skipped refreshes too. */
const EVERY = 'every';

interface FilterValues {
  hardwareId?: string;
  result?: TagLogResult | typeof EVERY;
  stationSn?: string;
  range?: DateRange;
}

const RESULT_COLOURS: Record<TagLogResult, string> = {
  ok: 'success',
  skipped: 'default',
  failed: 'error',
  cancelled: 'warning',
  replaced: 'processing',
};

const dash = <Typography.Text type="secondary">—</Typography.Text>;

/** The form's values as the tag log's filters (the server matches a whole ID or a part of one). */
export function tagLogFilter(v: Partial<FilterValues>) {
  return {
    hardwareId: trimmedOrUndefined(v.hardwareId),
    result: v.result && v.result !== EVERY ? v.result : undefined,
    // By default the refreshes skipped (the tag already showed its label) stay out: no work was done.
    hideSkipped: !v.result,
    stationSn: v.stationSn || undefined,
    ...rangeBounds(v.range),
  };
}

/** Seconds with one decimal below a minute, whole seconds above. */
function seconds(ms: number): string {
  const s = ms / 1000;
  return s < 60 ? s.toFixed(1) : String(Math.round(s));
}

export default storeScreen('logs', TagLogList);

function TagLogList({ storeId }: { storeId: number }) {
  const { t } = useTranslation('logs');
  const canReadStations = useUserStore((s) => s.permissions.includes('station.read'));
  const list = useListQuery('tagTaskLog', { storeId, toFilter: tagLogFilter });
  const stations = useQuery({
    queryKey: [...queryKeys.area('stations', storeId), 'serials'],
    queryFn: () => requestList('stationRuntime', { page: 1, limit: 2000 }),
    enabled: canReadStations,
  });

  return (
    <ListPage
      list={list}
      ns="logs"
      title={t('tagTitle')}
      emptyHint={t('emptyHint.tag')}
      formName="tagLogFilter"
      testId="tag-log"
      filters={[
        { ...textFilter(t, 'tag', 190), name: 'hardwareId' },
        {
          ...selectFilter(
            t,
            'tagResult',
            150,
            [
              ...TAG_LOG_RESULTS.map((r) => ({ value: r, label: TAG_LOG_RESULT_LABELS[r][language] })),
              { value: EVERY, label: t('filter.everyResult') },
            ],
            { all: 'filter.allResults' },
          ),
          name: 'result',
        },
        canReadStations
          ? {
              ...selectFilter(
                t,
                'station',
                180,
                (stations.data?.rows ?? []).map((s) => ({ value: s.sn, label: s.name ? `${s.name} (${s.sn})` : s.sn })),
                { all: 'filter.allStations', search: true },
              ),
              name: 'stationSn',
              loading: stations.isFetching,
            }
          : { kind: 'text', name: 'stationSn', label: t('filter.station'), width: 160 },
        datesFilter('range', t('filter.finished')),
      ]}
      columns={[
        { title: t('col.finished'), dataIndex: 'finishedAt', width: 165, render: (v: number) => parseTime(v) },
        {
          title: t('col.tag'),
          dataIndex: 'hardwareId',
          width: 145,
          render: (v: string) => <Typography.Text copyable={{ text: v }}>{v}</Typography.Text>,
        },
        {
          title: t('col.kind'),
          dataIndex: 'kindName',
          width: 110,
          ellipsis: true,
          render: (v: string, row: TagLog) => (
            <Tooltip
              title={
                row.requestId === null ? t('tag.revision', { rev: row.rev }) : t('tag.request', { id: row.requestId })
              }
            >
              <span>{v}</span>
            </Tooltip>
          ),
        },
        {
          title: t('col.tagResult'),
          dataIndex: 'result',
          width: 100,
          render: (v: TagLogResult, row: TagLog) => <Tag color={RESULT_COLOURS[v]}>{row.resultName}</Tag>,
        },
        {
          title: t('col.reason'),
          dataIndex: 'message',
          ellipsis: { showTitle: false },
          render: (v: string, row: TagLog) =>
            v ? (
              <Tooltip title={row.code ? t('tag.code', { code: row.code }) : undefined}>
                <span>{v}</span>
              </Tooltip>
            ) : (
              dash
            ),
        },
        { title: t('col.attempts'), dataIndex: 'attempts', width: 90, align: 'right' },
        {
          title: t('col.station'),
          dataIndex: 'stationSn',
          width: 130,
          ellipsis: { showTitle: false },
          // The tag's signal at that station in the tooltip.
          render: (v: string, row: TagLog) =>
            v ? (
              <Tooltip title={row.rssi === null ? v : `${v} · ${t('col.rssi')} ${t('dbm', { value: row.rssi })}`}>
                <span>{v}</span>
              </Tooltip>
            ) : (
              dash
            ),
        },
        {
          title: t('col.latency'),
          dataIndex: 'latencyMs',
          width: 90,
          align: 'right',
          // From queued to finished; the queue time itself in the tooltip.
          render: (v: number | null, row: TagLog) =>
            v === null ? (
              dash
            ) : (
              <Tooltip title={`${t('col.queued')}: ${parseTime(row.queuedAt)}`}>
                <span>{t('seconds', { value: seconds(v) })}</span>
              </Tooltip>
            ),
        },
      ]}
      scrollX={1090}
    />
  );
}
