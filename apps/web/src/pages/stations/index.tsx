import { CodeOutlined, DeleteOutlined, PlusOutlined, SyncOutlined } from '@ant-design/icons';
import type { AddStationData, Station } from '@esl/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Badge,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterActions } from '../../components/FilterActions';
import { listPagination } from '../../components/pagination';
import { request, requestList } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { formatTime, parseTime } from '../../utils/time';
import { type Paging, useKeepPageInRange } from '../shared/paging';
import { trimmedOrUndefined } from '../shared/rules';
import { StoreRequired } from '../shared/StoreRequired';
import { AddStationModal } from './AddStationModal';
import { SecretModal } from './SecretModal';
import { UsageBar } from './UsageBar';

type OnlineChoice = 'online' | 'offline';

interface FilterValues {
  text?: string;
  online?: OnlineChoice;
}

interface Filter {
  text?: string;
  online?: boolean;
}

/** Runtime figures come with the stations' heartbeats, so the list refreshes itself. */
const REFRESH_MS = 30_000;

const dash = <Typography.Text type="secondary">—</Typography.Text>;

export default function BaseStationsPage() {
  const { t } = useTranslation('stations');
  return (
    <StoreRequired title={t('needStore')} hint={t('needStoreHint')}>
      {(storeId) => <BaseStations storeId={storeId} />}
    </StoreRequired>
  );
}

function BaseStations({ storeId }: { storeId: number }) {
  const { t, i18n } = useTranslation('stations');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const permissions = useUserStore((s) => s.permissions);
  const canWrite = permissions.includes('station.write');
  const canOperate = permissions.includes('station.operate');

  const [filterForm] = Form.useForm<FilterValues>();
  const [filter, setFilter] = useState<Filter>({});
  const [paging, setPaging] = useState<Paging>({ page: 1, limit: 20 });
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<AddStationData | null>(null);

  const stations = useQuery({
    queryKey: ['stations', storeId, 'list', filter, paging],
    queryFn: () => requestList('stationRuntime', { ...paging, ...filter }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  useKeepPageInRange(stations.data?.count, paging, setPaging);

  const changed = () => void queryClient.invalidateQueries({ queryKey: ['stations', storeId] });

  const remove = useMutation({
    mutationFn: (id: number) => request('delStation', { ids: [id] }),
    onSuccess: () => {
      message.success(t('deleted'));
      changed();
    },
  });

  const openWindow = useMutation({
    mutationFn: (id: number) => request('openCmdWindow', { id }),
    onSuccess: (answer) => {
      if (answer.delivered) message.success(t('cmd.opened'));
      else message.warning({ content: t('cmd.recorded'), duration: 6 });
    },
  });

  const columns: ColumnsType<Station> = [
    {
      title: t('col.sn'),
      dataIndex: 'sn',
      width: 150,
      fixed: 'left',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { title: t('col.name'), dataIndex: 'name', width: 140, ellipsis: true, render: (v: string) => v || dash },
    { title: t('col.module'), dataIndex: 'module', width: 100, ellipsis: true, render: (v: string) => v || dash },
    {
      title: t('col.online'),
      dataIndex: 'online',
      width: 90,
      render: (online: boolean) =>
        online ? <Badge status="success" text={t('online')} /> : <Badge status="default" text={t('offline')} />,
    },
    { title: t('col.cpu'), dataIndex: 'cpu', width: 120, render: (v: number | null) => <UsageBar value={v} /> },
    { title: t('col.memory'), dataIndex: 'memory', width: 120, render: (v: number | null) => <UsageBar value={v} /> },
    { title: t('col.disk'), dataIndex: 'disk', width: 120, render: (v: number | null) => <UsageBar value={v} /> },
    { title: t('col.ip'), dataIndex: 'ip', width: 130, render: (v: string) => v || dash },
    {
      title: t('col.mac'),
      dataIndex: 'mac',
      width: 150,
      render: (v: string) => (v ? <Typography.Text style={{ fontFamily: 'monospace' }}>{v}</Typography.Text> : dash),
    },
    { title: t('col.firmware'), dataIndex: 'firmware', width: 110, ellipsis: true, render: (v: string) => v || dash },
    {
      title: t('col.lastHeartbeat'),
      dataIndex: 'lastHeartbeat',
      width: 150,
      render: (v: number | null) =>
        v === null ? (
          <Typography.Text type="secondary">{t('never')}</Typography.Text>
        ) : (
          <Tooltip title={parseTime(v)}>{formatTime(v, '{y}-{m}-{d} {h}:{i}', lang)}</Tooltip>
        ),
    },
  ];
  if (canWrite || canOperate) {
    columns.push({
      title: t('col.actions'),
      key: 'actions',
      width: lang === 'en' ? 270 : 200,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          {canOperate && (
            <Button
              type="link"
              size="small"
              icon={<CodeOutlined />}
              loading={openWindow.isPending && openWindow.variables === row.id}
              onClick={() => openWindow.mutate(row.id)}
            >
              {t('cmd.open')}
            </Button>
          )}
          {canWrite && (
            <Popconfirm
              title={t('deleteTitle')}
              description={t('deleteConfirm', { sn: row.sn })}
              okText={t('delete')}
              okButtonProps={{ danger: true }}
              cancelText={t('cancel')}
              onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />}>
                {t('delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    });
  }

  const details = (row: Station) => {
    const or = (v: string) => v || '—';
    const server = row.serverAddress ? `${row.serverAddress}${row.serverPort ? `:${row.serverPort}` : ''}` : '—';
    return (
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2, xl: 3 }}
        items={[
          { key: 'wifi', label: t('field.wifiPassword'), children: or(row.wifiPassword) },
          { key: 'ntp', label: t('field.ntpServer'), children: or(row.ntpServer) },
          { key: 'gateway', label: t('field.gateway'), children: or(row.gateway) },
          { key: 'mask', label: t('field.mask'), children: or(row.mask) },
          { key: 'server', label: t('field.server'), children: server },
          { key: 'upgrade', label: t('field.upgradeUrl'), children: or(row.upgradeUrl) },
          { key: 'created', label: t('field.created'), children: parseTime(row.createdAt) },
        ]}
      />
    );
  };

  const search = (values: FilterValues) => {
    setFilter({
      text: trimmedOrUndefined(values.text),
      online: values.online === undefined ? undefined : values.online === 'online',
    });
    setPaging((p) => ({ ...p, page: 1 }));
  };

  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <Card size="small">
        <Form form={filterForm} name="stationFilter" layout="inline" onFinish={search} style={{ rowGap: 8 }}>
          <Form.Item name="text" label={t('filter.text')}>
            <Input allowClear placeholder={t('filter.textPlaceholder')} style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="online" label={t('filter.online')}>
            <Select<OnlineChoice>
              allowClear
              placeholder={t('filter.all')}
              style={{ width: 130 }}
              options={[
                { value: 'online', label: t('online') },
                { value: 'offline', label: t('offline') },
              ]}
            />
          </Form.Item>
          <FilterActions
            onReset={() => {
              filterForm.resetFields();
              search({});
            }}
          />
        </Form>
      </Card>
      <Card
        size="small"
        title={t('title')}
        extra={
          <Space>
            <Tooltip title={t('refreshHint')}>
              <Button icon={<SyncOutlined spin={stations.isFetching} />} onClick={() => void stations.refetch()}>
                {t('refresh')}
              </Button>
            </Tooltip>
            {canWrite && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="add-station">
                {t('add')}
              </Button>
            )}
          </Space>
        }
      >
        <Table<Station>
          data-testid="station-table"
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={stations.data?.rows ?? []}
          loading={stations.isFetching && !stations.data}
          scroll={{ x: 1500 }}
          expandable={{ expandedRowRender: details }}
          locale={{ emptyText: stations.isError ? t('loadFailed') : t('empty') }}
          pagination={listPagination(paging, stations.data?.count ?? 0, setPaging, (total) =>
            t('total', { count: total }),
          )}
        />
      </Card>
      <AddStationModal
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(station) => {
          setAdding(false);
          setAdded(station);
          message.success(t('added'));
          changed();
        }}
      />
      <SecretModal station={added} onClose={() => setAdded(null)} />
    </Space>
  );
}
