import type { SysLog } from '@esl/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Form, type GetProps, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterActions } from '../../../components/FilterActions';
import { listPagination } from '../../../components/pagination';
import { requestList } from '../../../platform/request';
import { parseTime } from '../../../utils/time';

type Level = SysLog['level'];
type Range = GetProps<typeof DatePicker.RangePicker>['value'];

interface FilterValues {
  level?: Level;
  event?: string;
  range?: Range;
}

interface Filter {
  level?: Level;
  event?: string;
  from?: number;
  to?: number;
}

const LEVELS: readonly Level[] = ['info', 'warn', 'error'];
const LEVEL_COLOURS: Record<Level, string> = { info: 'blue', warn: 'orange', error: 'red' };

export default function SysLogPage() {
  const { t } = useTranslation('logs');
  const [form] = Form.useForm<FilterValues>();
  const [filter, setFilter] = useState<Filter>({});
  const [paging, setPaging] = useState({ page: 1, limit: 20 });

  const logs = useQuery({
    queryKey: ['logs', 'sys', filter, paging],
    queryFn: () => requestList('sysLog', { ...paging, ...filter }),
    placeholderData: keepPreviousData,
  });

  const columns: ColumnsType<SysLog> = [
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
  ];

  const search = (v: FilterValues) => {
    setFilter({
      level: v.level || undefined,
      event: v.event?.trim() || undefined,
      from: v.range?.[0]?.startOf('day').valueOf(),
      to: v.range?.[1]?.endOf('day').valueOf(),
    });
    setPaging((p) => ({ ...p, page: 1 }));
  };

  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <Card size="small">
        <Form form={form} name="sysLogFilter" layout="inline" onFinish={search} style={{ rowGap: 8 }}>
          <Form.Item name="level" label={t('filter.level')}>
            <Select
              allowClear
              placeholder={t('filter.allLevels')}
              style={{ width: 140 }}
              options={LEVELS.map((l) => ({ value: l, label: t(`level.${l}`) }))}
            />
          </Form.Item>
          <Form.Item name="event" label={t('filter.event')}>
            <Input allowClear placeholder={t('filter.eventPlaceholder')} style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="range" label={t('filter.time')}>
            <DatePicker.RangePicker allowEmpty={[true, true]} />
          </Form.Item>
          <FilterActions
            onReset={() => {
              form.resetFields();
              search({});
            }}
          />
        </Form>
      </Card>
      <Card size="small" title={t('sysTitle')}>
        <Table<SysLog>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={logs.data?.rows ?? []}
          loading={logs.isFetching}
          scroll={{ x: 900 }}
          locale={{ emptyText: logs.isError ? t('loadFailed') : t('empty') }}
          pagination={listPagination(paging, logs.data?.count ?? 0, setPaging, (total) => t('total', { count: total }))}
        />
      </Card>
    </Space>
  );
}
