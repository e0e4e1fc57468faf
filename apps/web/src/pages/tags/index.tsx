import {
  AimOutlined,
  DeleteOutlined,
  DisconnectOutlined,
  LinkOutlined,
  PlusOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { TAG_STATUSES, type Tag } from '@esl/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Flex,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  type TableProps,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { SortOrder } from 'antd/es/table/interface';
import { type Key, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterActions } from '../../components/FilterActions';
import { request, requestList } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { formatTime, parseTime } from '../../utils/time';
import { type Paging, useKeepPageInRange } from '../shared/paging';
import { StoreRequired } from '../shared/StoreRequired';
import { SELECTION_WIDTH, tableWidth, VIRTUAL_FROM, VIRTUAL_HEIGHT } from '../shared/table';
import { AddTagsModal } from './AddTagsModal';
import { BindModal } from './BindModal';
import { type TagFilterValues, type TagSort, tagFilter, tagSortOf } from './body';
import { Battery, ColourType, ModelName, Signal, StatusTag, Temperature } from './display';
import { MODEL_OPTIONS } from './modelOptions';

const PAGE_SIZES = [20, 50, 100, 200, 500, 1000];

type Operation = 'refreshTag' | 'rollCallTag' | 'refreshAllTags' | 'rollCallAllTags';

export default function TagsPage() {
  const { t } = useTranslation('tags');
  return (
    <StoreRequired title={t('needStore')} hint={t('needStoreHint')}>
      {(storeId) => <Tags storeId={storeId} />}
    </StoreRequired>
  );
}

function Tags({ storeId }: { storeId: number }) {
  const { t, i18n } = useTranslation('tags');
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const permissions = useUserStore((s) => s.permissions);
  const canWrite = permissions.includes('tag.write');
  const canBind = permissions.includes('tag.bind');
  const canOperate = permissions.includes('tag.operate');

  const [filterForm] = Form.useForm<TagFilterValues>();
  const [filter, setFilter] = useState<TagFilterValues>({});
  const [paging, setPaging] = useState<Paging>({ page: 1, limit: 20 });
  const [sort, setSort] = useState<{ sort: TagSort; order: 'asc' | 'desc' } | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [adding, setAdding] = useState(false);
  const [binding, setBinding] = useState<{ hardwareId?: string } | null>(null);

  const tags = useQuery({
    queryKey: ['tags', storeId, 'list', filter, paging, sort],
    queryFn: () => requestList('tagList', { ...paging, ...tagFilter(filter), ...(sort ?? {}) }),
    placeholderData: keepPreviousData,
  });
  useKeepPageInRange(tags.data?.count, paging, setPaging);
  const rows = tags.data?.rows ?? [];

  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: ['tags', storeId] });
    // Product rows count their tags.
    void queryClient.invalidateQueries({ queryKey: ['products', storeId] });
  };

  const remove = useMutation({
    mutationFn: (ids: number[]) => request('delTag', { ids }),
    onSuccess: (answer, ids) => {
      message.success(t('deletedCount', { count: answer.deleted }));
      setSelected((keys) => keys.filter((k) => !ids.includes(k)));
      changed();
    },
  });

  const unbind = useMutation({
    mutationFn: (ids: number[]) => request('unbindTag', { ids }),
    onSuccess: (answer) => {
      message.success(t('unboundCount', { count: answer.unbound }));
      changed();
    },
  });

  // Until delivery to tags exists the server records these and answers so; the request client shows that answer.
  // `from` tells which button asked (a row, the selection, the whole store), so only that one spins.
  const operate = useMutation({
    mutationFn: ({ op, ids }: { op: Operation; ids?: number[]; from: string }) =>
      op === 'refreshTag' || op === 'rollCallTag' ? request(op, { ids: ids ?? [] }) : request(op, {}),
    onSuccess: (_, { op }) => message.success(t(`op.sent.${op}`)),
  });

  const busy = (op: Operation, from: string) =>
    operate.isPending && operate.variables.op === op && operate.variables.from === from;

  const sortOrderOf = (key: TagSort): SortOrder =>
    sort?.sort === key ? (sort.order === 'asc' ? 'ascend' : 'descend') : null;

  const columns: ColumnsType<Tag> = [
    {
      title: t('col.id'),
      dataIndex: 'hardwareId',
      key: 'hardwareId',
      width: 170,
      fixed: 'left',
      sorter: true,
      sortOrder: sortOrderOf('hardwareId'),
      render: (v: string) => <Typography.Text style={{ fontFamily: 'monospace' }}>{v}</Typography.Text>,
    },
    {
      title: t('col.model'),
      dataIndex: 'modelName',
      key: 'model',
      width: 140,
      sorter: true,
      sortOrder: sortOrderOf('model'),
      render: (name: string, row) => <ModelName code={row.model} name={name} />,
    },
    {
      title: t('col.colour'),
      dataIndex: 'colour',
      width: lang === 'en' ? 230 : 160,
      render: (c: Tag['colour']) => <ColourType colour={c} />,
    },
    {
      title: t('col.product'),
      dataIndex: 'product',
      width: 220,
      render: (p: Tag['product']) =>
        p ? (
          <Space orientation="vertical" size={0}>
            <Typography.Text ellipsis style={{ maxWidth: 200 }}>
              {p.name}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {p.barcode} · {p.price}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('unbound')}</Typography.Text>
        ),
    },
    {
      title: t('col.status'),
      dataIndex: 'status',
      key: 'status',
      width: 130,
      sorter: true,
      sortOrder: sortOrderOf('status'),
      render: (s: Tag['status']) => <StatusTag status={s} />,
    },
    {
      title: t('col.signal'),
      dataIndex: 'signal',
      key: 'signal',
      width: 100,
      sorter: true,
      sortOrder: sortOrderOf('signal'),
      render: (v: number | null) => <Signal dbm={v} />,
    },
    {
      title: t('col.battery'),
      dataIndex: 'battery',
      key: 'battery',
      width: 90,
      sorter: true,
      sortOrder: sortOrderOf('battery'),
      render: (v: number | null) => <Battery percent={v} />,
    },
    {
      title: t('col.temperature'),
      dataIndex: 'temperature',
      width: 90,
      render: (v: number | null) => <Temperature celsius={v} />,
    },
    {
      title: t('col.hardwareModel'),
      dataIndex: 'hardwareModel',
      width: 130,
      ellipsis: true,
      render: (v: string) => v || <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      title: t('col.station'),
      dataIndex: 'stationSn',
      width: 130,
      render: (v: string | null) =>
        v ? <Typography.Text code>{v}</Typography.Text> : <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      title: t('col.lastSeen'),
      dataIndex: 'lastSeen',
      key: 'lastSeen',
      width: 150,
      sorter: true,
      sortOrder: sortOrderOf('lastSeen'),
      render: (v: number | null) =>
        v === null ? (
          <Typography.Text type="secondary">{t('never')}</Typography.Text>
        ) : (
          <Tooltip title={parseTime(v)}>{formatTime(v, '{y}-{m}-{d} {h}:{i}', lang)}</Tooltip>
        ),
    },
  ];
  if (canWrite || canBind || canOperate) {
    columns.push({
      title: t('col.actions'),
      key: 'actions',
      width: 160,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          {canBind &&
            (row.product ? (
              <Popconfirm
                placement="left"
                title={t('unbindTitle')}
                description={t('unbindConfirm', { id: row.hardwareId, name: row.product.name })}
                okText={t('unbind')}
                cancelText={t('cancel')}
                onConfirm={() => unbind.mutateAsync([row.id]).catch(() => undefined)}
              >
                <Tooltip title={t('unbind')}>
                  <Button type="link" size="small" icon={<DisconnectOutlined />} aria-label={t('unbind')} />
                </Tooltip>
              </Popconfirm>
            ) : (
              <Tooltip title={t('bind.action')}>
                <Button
                  type="link"
                  size="small"
                  icon={<LinkOutlined />}
                  aria-label={t('bind.action')}
                  onClick={() => setBinding({ hardwareId: row.hardwareId })}
                />
              </Tooltip>
            ))}
          {canOperate && (
            <>
              <Tooltip title={t('op.refresh')}>
                <Button
                  type="link"
                  size="small"
                  icon={<SyncOutlined />}
                  aria-label={t('op.refresh')}
                  loading={busy('refreshTag', `row:${row.id}`)}
                  onClick={() => operate.mutate({ op: 'refreshTag', ids: [row.id], from: `row:${row.id}` })}
                />
              </Tooltip>
              <Tooltip title={t('op.rollCall')}>
                <Button
                  type="link"
                  size="small"
                  icon={<AimOutlined />}
                  aria-label={t('op.rollCall')}
                  loading={busy('rollCallTag', `row:${row.id}`)}
                  onClick={() => operate.mutate({ op: 'rollCallTag', ids: [row.id], from: `row:${row.id}` })}
                />
              </Tooltip>
            </>
          )}
          {canWrite && (
            <Popconfirm
              placement="left"
              title={t('deleteTitle')}
              description={t('deleteConfirm', { id: row.hardwareId })}
              okText={t('delete')}
              okButtonProps={{ danger: true }}
              cancelText={t('cancel')}
              onConfirm={() => remove.mutateAsync([row.id]).catch(() => undefined)}
            >
              <Tooltip title={t('delete')}>
                <Button type="link" size="small" danger icon={<DeleteOutlined />} aria-label={t('delete')} />
              </Tooltip>
            </Popconfirm>
          )}
        </Space>
      ),
    });
  }

  // A new filter starts a new selection: rows chosen under the old one would be out of sight.
  const search = (values: TagFilterValues) => {
    setFilter(values);
    setSelected([]);
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const onTableChange: TableProps<Tag>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const one = Array.isArray(sorter) ? sorter[0] : sorter;
      const key = tagSortOf(one?.columnKey);
      setSort(key && one.order ? { sort: key, order: one.order === 'ascend' ? 'asc' : 'desc' } : null);
      setPaging((p) => ({ ...p, page: 1 }));
    } else if (extra.action === 'paginate') {
      setPaging({ page: pagination.current ?? 1, limit: pagination.pageSize ?? paging.limit });
    }
  };

  const virtual = rows.length > VIRTUAL_FROM;
  const width = tableWidth(columns, SELECTION_WIDTH);
  const selectedCount = selected.length;

  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <Card size="small">
        <Form form={filterForm} name="tagFilter" layout="inline" onFinish={search} style={{ rowGap: 8 }}>
          <Form.Item name="text" label={t('filter.text')}>
            <Input allowClear placeholder={t('filter.textPlaceholder')} style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="status" label={t('filter.status')}>
            <Select
              allowClear
              placeholder={t('filter.all')}
              style={{ width: 150 }}
              options={TAG_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
            />
          </Form.Item>
          <Form.Item name="model" label={t('filter.model')}>
            <Select
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('filter.all')}
              style={{ width: 200 }}
              options={MODEL_OPTIONS}
            />
          </Form.Item>
          <Form.Item name="bound" label={t('filter.bound')}>
            <Select
              allowClear
              placeholder={t('filter.all')}
              style={{ width: 120 }}
              options={[
                { value: 'bound', label: t('filter.boundYes') },
                { value: 'unbound', label: t('filter.boundNo') },
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
          <Space wrap>
            {canOperate && (
              <>
                <Popconfirm
                  title={t('op.refreshAll')}
                  description={t('op.allConfirm')}
                  okText={t('ok')}
                  cancelText={t('cancel')}
                  onConfirm={() => operate.mutateAsync({ op: 'refreshAllTags', from: 'store' }).catch(() => undefined)}
                >
                  <Button icon={<SyncOutlined />} loading={busy('refreshAllTags', 'store')}>
                    {t('op.refreshAll')}
                  </Button>
                </Popconfirm>
                <Popconfirm
                  title={t('op.rollCallAll')}
                  description={t('op.allConfirm')}
                  okText={t('ok')}
                  cancelText={t('cancel')}
                  onConfirm={() => operate.mutateAsync({ op: 'rollCallAllTags', from: 'store' }).catch(() => undefined)}
                >
                  <Button icon={<AimOutlined />} loading={busy('rollCallAllTags', 'store')}>
                    {t('op.rollCallAll')}
                  </Button>
                </Popconfirm>
              </>
            )}
            {canBind && (
              <Button icon={<LinkOutlined />} onClick={() => setBinding({})} data-testid="bind-tags">
                {t('bind.action')}
              </Button>
            )}
            {canWrite && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="add-tags">
                {t('add')}
              </Button>
            )}
          </Space>
        }
      >
        {selectedCount > 0 && (
          <Flex align="center" gap={8} wrap style={{ marginBottom: 12 }} data-testid="selection-bar">
            <Typography.Text>{t('selected', { count: selectedCount })}</Typography.Text>
            {canBind && (
              <Popconfirm
                title={t('unbindTitle')}
                description={t('unbindManyConfirm', { count: selectedCount })}
                okText={t('unbind')}
                cancelText={t('cancel')}
                onConfirm={() => unbind.mutateAsync(selected).catch(() => undefined)}
              >
                <Button size="small" icon={<DisconnectOutlined />}>
                  {t('unbind')}
                </Button>
              </Popconfirm>
            )}
            {canOperate && (
              <>
                <Button
                  size="small"
                  icon={<SyncOutlined />}
                  loading={busy('refreshTag', 'selection')}
                  onClick={() => operate.mutate({ op: 'refreshTag', ids: selected, from: 'selection' })}
                >
                  {t('op.refresh')}
                </Button>
                <Button
                  size="small"
                  icon={<AimOutlined />}
                  loading={busy('rollCallTag', 'selection')}
                  onClick={() => operate.mutate({ op: 'rollCallTag', ids: selected, from: 'selection' })}
                >
                  {t('op.rollCall')}
                </Button>
              </>
            )}
            {canWrite && (
              <Popconfirm
                title={t('deleteTitle')}
                description={t('deleteManyConfirm', { count: selectedCount })}
                okText={t('delete')}
                okButtonProps={{ danger: true }}
                cancelText={t('cancel')}
                onConfirm={() => remove.mutateAsync(selected).catch(() => undefined)}
              >
                <Button size="small" danger icon={<DeleteOutlined />}>
                  {t('delete')}
                </Button>
              </Popconfirm>
            )}
            <Button size="small" type="link" onClick={() => setSelected([])}>
              {t('clearSelection')}
            </Button>
          </Flex>
        )}
        <Table<Tag>
          data-testid="tag-table"
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={tags.isFetching}
          virtual={virtual}
          scroll={virtual ? { x: width, y: VIRTUAL_HEIGHT } : { x: width }}
          rowSelection={{
            selectedRowKeys: selected,
            preserveSelectedRowKeys: true,
            columnWidth: SELECTION_WIDTH,
            onChange: (keys: Key[]) => setSelected(keys.map(Number)),
          }}
          onChange={onTableChange}
          locale={{ emptyText: tags.isError ? t('loadFailed') : t('empty') }}
          pagination={{
            current: paging.page,
            pageSize: paging.limit,
            total: tags.data?.count ?? 0,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES,
            showTotal: (total) => t('total', { count: total }),
          }}
        />
      </Card>
      <AddTagsModal
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={() => {
          setAdding(false);
          changed();
        }}
      />
      <BindModal
        open={binding !== null}
        hardwareId={binding?.hardwareId}
        onClose={() => setBinding(null)}
        onBound={changed}
      />
    </Space>
  );
}
