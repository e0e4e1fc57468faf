import { DeleteOutlined, EditOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import type { Store } from '@esl/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Popconfirm, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterActions } from '../../components/FilterActions';
import { listPagination } from '../../components/pagination';
import { request, requestList } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { parseTime } from '../../utils/time';
import { StoreFormModal } from './StoreFormModal';
import { StoreParamsModal } from './StoreParamsModal';

interface Filter {
  name?: string;
  code?: string;
}

export default function StoresPage() {
  const { t } = useTranslation('stores');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const permissions = useUserStore((s) => s.permissions);
  const getInfo = useUserStore((s) => s.getInfo);
  const canWrite = permissions.includes('store.write');

  const [filterForm] = Form.useForm<Filter>();
  const [filter, setFilter] = useState<Filter>({});
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const [editing, setEditing] = useState<Store | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [paramsOf, setParamsOf] = useState<Store | null>(null);

  const stores = useQuery({
    queryKey: ['stores', 'list', filter, paging],
    queryFn: () => requestList('storeList', { ...paging, ...filter }),
    placeholderData: keepPreviousData,
  });

  // The navbar's store switcher lists the same stores, so it is refreshed after every change.
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: ['stores'] });
    void getInfo().catch(() => undefined);
  };

  const remove = useMutation({
    mutationFn: (id: number) => request('delStore', { ids: [id] }),
    onSuccess: () => {
      message.success(t('deleted'));
      changed();
    },
  });

  const columns: ColumnsType<Store> = [
    { title: t('col.name'), dataIndex: 'name', width: 170, ellipsis: true },
    {
      title: t('col.code'),
      dataIndex: 'code',
      width: 100,
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { title: t('col.address'), dataIndex: 'address', ellipsis: true },
    { title: t('col.contact'), dataIndex: 'contact', width: 100, ellipsis: true },
    { title: t('col.phone'), dataIndex: 'phone', width: 125, ellipsis: true },
    { title: t('col.remark'), dataIndex: 'remark', ellipsis: true },
    { title: t('col.created'), dataIndex: 'createdAt', width: 160, render: (v: number) => parseTime(v) },
    {
      title: t('col.actions'),
      key: 'actions',
      width: canWrite ? 220 : 100,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          {canWrite && (
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={() => {
                setEditing(row);
                setFormOpen(true);
              }}
            >
              {t('edit')}
            </Button>
          )}
          <Button type="link" size="small" icon={<SettingOutlined />} onClick={() => setParamsOf(row)}>
            {t('params')}
          </Button>
          {canWrite && (
            <Popconfirm
              title={t('deleteTitle')}
              description={t('deleteConfirm', { name: row.name })}
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
    },
  ];

  const search = (values: Filter) => {
    setFilter({ name: values.name?.trim() || undefined, code: values.code?.trim() || undefined });
    setPaging((p) => ({ ...p, page: 1 }));
  };

  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <Card size="small">
        <Form form={filterForm} name="storeFilter" layout="inline" onFinish={search} style={{ rowGap: 8 }}>
          <Form.Item name="name" label={t('filter.name')}>
            <Input allowClear placeholder={t('filter.namePlaceholder')} style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="code" label={t('filter.code')}>
            <Input allowClear placeholder={t('filter.codePlaceholder')} style={{ width: 160 }} />
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
          canWrite && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => {
                setEditing(null);
                setFormOpen(true);
              }}
            >
              {t('add')}
            </Button>
          )
        }
      >
        <Table<Store>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={stores.data?.rows ?? []}
          loading={stores.isFetching}
          scroll={{ x: 1050 }}
          locale={{ emptyText: stores.isError ? t('loadFailed') : t('empty') }}
          pagination={listPagination(paging, stores.data?.count ?? 0, setPaging, (total) =>
            t('total', { count: total }),
          )}
        />
      </Card>
      <StoreFormModal
        open={formOpen}
        store={editing}
        onClose={() => setFormOpen(false)}
        onSaved={() => {
          setFormOpen(false);
          changed();
        }}
      />
      <StoreParamsModal
        store={paramsOf}
        editable={permissions.includes('store.params')}
        onClose={() => setParamsOf(null)}
      />
    </Space>
  );
}
