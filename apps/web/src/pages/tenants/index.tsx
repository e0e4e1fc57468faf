import { DeleteOutlined, KeyOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import type { Tenant } from '@esl/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Popconfirm, Result, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterActions } from '../../components/FilterActions';
import { listPagination } from '../../components/pagination';
import { request, requestList } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { parseTime } from '../../utils/time';
import { AddTenantModal } from './AddTenantModal';
import { ResetPasswordModal } from './ResetPasswordModal';

export default function TenantsPage() {
  const { t } = useTranslation('tenants');
  const permissions = useUserStore((s) => s.permissions);
  if (!permissions.includes('platform.tenants')) {
    return <Result status="403" title="403" subTitle={t('forbidden')} />;
  }
  return <TenantsTable />;
}

function TenantsTable() {
  const { t } = useTranslation('tenants');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [filterForm] = Form.useForm<{ name?: string }>();
  const [name, setName] = useState<string | undefined>();
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<Tenant | null>(null);

  const tenants = useQuery({
    queryKey: ['tenants', 'list', name, paging],
    queryFn: () => requestList('tenantList', { ...paging, name }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['tenants'] });

  const renew = useMutation({
    mutationFn: (tenant: Tenant) => request('renewTenantKey', { id: tenant.id }),
    onSuccess: (keys, tenant) => {
      refresh();
      modal.success({
        title: t('renewed', { name: tenant.name }),
        width: 520,
        content: (
          <Space orientation="vertical" style={{ display: 'flex' }}>
            <div>
              {t('col.ck')}:{' '}
              <Typography.Text code copyable>
                {keys.ck}
              </Typography.Text>
            </div>
            <div>
              {t('sk')}:{' '}
              <Typography.Text code copyable>
                {keys.sk}
              </Typography.Text>
            </div>
            <Typography.Text type="secondary">{t('renewedHint')}</Typography.Text>
          </Space>
        ),
        okText: t('ok'),
      });
    },
  });

  const remove = useMutation({
    mutationFn: (id: number) => request('delTenant', { ids: [id] }),
    onSuccess: () => {
      message.success(t('deleted'));
      refresh();
    },
  });

  const columns: ColumnsType<Tenant> = [
    { title: t('col.name'), dataIndex: 'name', width: 160, ellipsis: true },
    { title: t('col.company'), dataIndex: 'company', width: 180, ellipsis: true },
    { title: t('col.description'), dataIndex: 'description', ellipsis: true },
    { title: t('col.account'), dataIndex: 'account', width: 130, ellipsis: true },
    {
      title: t('col.ck'),
      dataIndex: 'ck',
      width: 200,
      ellipsis: true,
      render: (v: string) => (
        <Typography.Text code copyable={{ text: v }}>
          {v}
        </Typography.Text>
      ),
    },
    { title: t('col.stores'), dataIndex: 'storeCount', width: 80, align: 'right' },
    { title: t('col.users'), dataIndex: 'userCount', width: 80, align: 'right' },
    { title: t('col.created'), dataIndex: 'createdAt', width: 170, render: (v: number) => parseTime(v) },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 350,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Popconfirm
            title={t('renewTitle')}
            description={t('renewConfirm', { name: row.name })}
            okText={t('renew')}
            cancelText={t('cancel')}
            onConfirm={() => renew.mutateAsync(row).catch(() => undefined)}
          >
            <Button type="link" size="small" icon={<KeyOutlined />}>
              {t('renew')}
            </Button>
          </Popconfirm>
          <Button type="link" size="small" icon={<LockOutlined />} onClick={() => setResetting(row)}>
            {t('resetPwd')}
          </Button>
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
        </Space>
      ),
    },
  ];

  const search = (values: { name?: string }) => {
    setName(values.name?.trim() || undefined);
    setPaging((p) => ({ ...p, page: 1 }));
  };

  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <Card size="small">
        <Form form={filterForm} name="tenantFilter" layout="inline" onFinish={search} style={{ rowGap: 8 }}>
          <Form.Item name="name" label={t('filter.name')}>
            <Input allowClear placeholder={t('filter.namePlaceholder')} style={{ width: 220 }} />
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
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {t('add')}
          </Button>
        }
      >
        <Table<Tenant>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={tenants.data?.rows ?? []}
          loading={tenants.isFetching}
          scroll={{ x: 1500 }}
          locale={{ emptyText: tenants.isError ? t('loadFailed') : t('empty') }}
          pagination={listPagination(paging, tenants.data?.count ?? 0, setPaging, (total) =>
            t('total', { count: total }),
          )}
        />
      </Card>
      <AddTenantModal
        open={adding}
        onClose={() => setAdding(false)}
        onSaved={() => {
          setAdding(false);
          refresh();
        }}
      />
      <ResetPasswordModal tenant={resetting} onClose={() => setResetting(null)} />
    </Space>
  );
}
