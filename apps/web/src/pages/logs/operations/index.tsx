import { ALL_CALLS, type OpLog } from '@esl/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Form, type GetProps, Input, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterActions } from '../../../components/FilterActions';
import { listPagination } from '../../../components/pagination';
import { requestList } from '../../../platform/request';
import { useUserStore } from '../../../store/user';
import { parseTime } from '../../../utils/time';

type Range = GetProps<typeof DatePicker.RangePicker>['value'];

interface FilterValues {
  username?: string;
  call?: string;
  storeId?: number;
  range?: Range;
}

interface Filter {
  username?: string;
  call?: string;
  storeId?: number;
  from?: number;
  to?: number;
}

/** Only calls that change data write operation-log rows, so only they are offered as a filter. */
const CHANGING_CALLS = ALL_CALLS.filter((c) => c.changes).map((c) => c.path);

export default function OpLogPage() {
  const { t } = useTranslation('logs');
  const [form] = Form.useForm<FilterValues>();
  const [filter, setFilter] = useState<Filter>({});
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const canReadStores = useUserStore((s) => s.permissions.includes('store.read'));

  const logs = useQuery({
    queryKey: ['logs', 'op', filter, paging],
    queryFn: () => requestList('opLog', { ...paging, ...filter }),
    placeholderData: keepPreviousData,
  });
  const stores = useQuery({
    queryKey: ['stores', 'all'],
    queryFn: () => requestList('storeList', { page: 1, limit: 2000 }),
    enabled: canReadStores,
  });

  const columns: ColumnsType<OpLog> = [
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
      dataIndex: 'call',
      width: 220,
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
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
  ];

  const search = (v: FilterValues) => {
    setFilter({
      username: v.username?.trim() || undefined,
      call: v.call || undefined,
      storeId: v.storeId || undefined,
      from: v.range?.[0]?.startOf('day').valueOf(),
      to: v.range?.[1]?.endOf('day').valueOf(),
    });
    setPaging((p) => ({ ...p, page: 1 }));
  };

  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <Card size="small">
        <Form form={form} name="opLogFilter" layout="inline" onFinish={search} style={{ rowGap: 8 }}>
          <Form.Item name="username" label={t('filter.username')}>
            <Input allowClear placeholder={t('filter.usernamePlaceholder')} style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="call" label={t('filter.call')}>
            <Select
              allowClear
              showSearch
              placeholder={t('filter.allCalls')}
              style={{ width: 240 }}
              options={CHANGING_CALLS.map((p) => ({ value: p, label: p }))}
            />
          </Form.Item>
          {canReadStores && (
            <Form.Item name="storeId" label={t('filter.store')}>
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('filter.allStores')}
                loading={stores.isFetching}
                style={{ width: 180 }}
                options={(stores.data?.rows ?? []).map((s) => ({ value: s.id, label: s.name }))}
              />
            </Form.Item>
          )}
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
      <Card size="small" title={t('opTitle')}>
        <Table<OpLog>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={logs.data?.rows ?? []}
          loading={logs.isFetching}
          scroll={{ x: 1100 }}
          locale={{ emptyText: logs.isError ? t('loadFailed') : t('empty') }}
          pagination={listPagination(paging, logs.data?.count ?? 0, setPaging, (total) => t('total', { count: total }))}
        />
      </Card>
    </Space>
  );
}
