import type { SysLog } from '@esl/contract';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type DateRange, rangeBounds, selectFilter, textFilter } from '../../../components/list/filters';
import { ListPage } from '../../../components/list/ListPage';
import { useListQuery } from '../../../components/list/useListQuery';
import { parseTime } from '../../../utils/time';
import { trimmedOrUndefined } from '../../shared/rules';

type Level = SysLog['level'];

interface FilterValues {
  level?: Level;
  event?: string;
  range?: DateRange;
}

const LEVELS: readonly Level[] = ['info', 'warn', 'error'];
const LEVEL_COLOURS: Record<Level, string> = { info: 'blue', warn: 'orange', error: 'red' };

export default function SysLogPage() {
  const { t } = useTranslation('logs');
  const list = useListQuery('sysLog', {
    toFilter: (v: FilterValues) => ({
      level: v.level || undefined,
      event: trimmedOrUndefined(v.event),
      ...rangeBounds(v.range),
    }),
  });

  return (
    <ListPage
      list={list}
      ns="logs"
      title={t('sysTitle')}
      formName="sysLogFilter"
      filters={[
        selectFilter(
          t,
          'level',
          140,
          LEVELS.map((l) => ({ value: l, label: t(`level.${l}`) })),
          { all: 'filter.allLevels' },
        ),
        textFilter(t, 'event', 180),
        { kind: 'dates', name: 'range', label: t('filter.time') },
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
          dataIndex: 'event',
          width: 180,
          ellipsis: true,
          render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
        },
        { title: t('col.message'), dataIndex: 'message', ellipsis: { showTitle: true } },
      ]}
      scrollX={900}
    />
  );
}
