import { SYS_EVENT_LABELS, type SysLog } from '@esl/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { type DateRange, datesFilter, rangeBounds } from '../../../components/list/datesFilter';
import { selectFilter } from '../../../components/list/filters';
import { ListPage } from '../../../components/list/ListPage';
import { useListQuery } from '../../../components/list/useListQuery';
import { language } from '../../../platform/i18n';
import { parseTime } from '../../../utils/time';
import { storeColumn, useStoreFilter } from '../storeFilter';

type Level = SysLog['level'];

interface FilterValues {
  level?: Level;
  event?: string;
  storeId?: number;
  range?: DateRange;
}

const LEVELS: readonly Level[] = ['info', 'warn', 'error'];
const LEVEL_COLOURS: Record<Level, string> = { info: 'blue', warn: 'orange', error: 'red' };
/** The events by their words in the console's language (issue 27: a word, never a key). */
const EVENTS = Object.entries(SYS_EVENT_LABELS).map(([value, words]) => ({ value, label: words[language] }));

export default function SysLogPage() {
  const { t } = useTranslation('logs');
  const list = useListQuery('sysLog', {
    toFilter: (v: FilterValues) => ({
      level: v.level || undefined,
      event: v.event || undefined,
      storeId: v.storeId || undefined,
      ...rangeBounds(v.range),
    }),
  });
  const storeFilter = useStoreFilter(t);

  return (
    <ListPage
      list={list}
      ns="logs"
      title={t('sysTitle')}
      emptyHint={t('emptyHint.sys')}
      formName="sysLogFilter"
      filters={[
        selectFilter(
          t,
          'level',
          140,
          LEVELS.map((l) => ({ value: l, label: t(`level.${l}`) })),
          { all: 'filter.allLevels' },
        ),
        selectFilter(t, 'event', 200, EVENTS, { all: 'filter.allEvents', search: true }),
        storeFilter,
        datesFilter('range', t('filter.time')),
      ]}
      columns={[
        { title: t('col.time'), dataIndex: 'time', width: 170, render: (v: number) => parseTime(v) },
        {
          title: t('col.level'),
          dataIndex: 'level',
          width: 100,
          render: (v: Level) => <Tag color={LEVEL_COLOURS[v]}>{t(`level.${v}`)}</Tag>,
        },
        {
          title: t('col.event'),
          dataIndex: 'eventName',
          width: 180,
          ellipsis: true,
        },
        storeColumn(t),
        { title: t('col.message'), dataIndex: 'message', ellipsis: { showTitle: true } },
      ]}
      scrollX={1080}
    />
  );
}
