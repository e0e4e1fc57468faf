import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { ROLE_LABELS, TENANT_ROLES, type TenantRole, type User } from '@esl/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Popconfirm, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterActions } from '../../components/FilterActions';
import { listPagination } from '../../components/pagination';
import { request, requestList } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { parseTime } from '../../utils/time';
import { UserFormModal } from './UserFormModal';

interface Filter {
  name?: string;
  role?: TenantRole;
}

const ROLE_COLOURS: Record<TenantRole, string> = {
  admin: 'red',
  editor: 'volcano',
  manager: 'blue',
  clerk: 'green',
  stock: 'cyan',
};

export default function UsersPage() {
  const { t, i18n } = useTranslation('users');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const permissions = useUserStore((s) => s.permissions);
  const canWrite = permissions.includes('user.write');
  const ownUsername = useUserStore((s) => s.username);
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';

  const [filterForm] = Form.useForm<Filter>();
  const [filter, setFilter] = useState<Filter>({});
  const [paging, setPaging] = useState({ page: 1, limit: 20 });
  const [editing, setEditing] = useState<User | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);

  const users = useQuery({
    queryKey: ['users', 'list', filter, paging],
    queryFn: () => requestList('userList', { ...paging, ...filter }),
    placeholderData: keepPreviousData,
  });
  const stores = useQuery({
    queryKey: ['stores', 'all'],
    queryFn: () => requestList('storeList', { page: 1, limit: 2000 }),
  });
  const storeNames = useMemo(() => new Map((stores.data?.rows ?? []).map((s) => [s.id, s.name])), [stores.data]);

  const remove = useMutation({
    mutationFn: (id: number) => request('delUser', { ids: [id] }),
    onSuccess: () => {
      message.success(t('deleted'));
      void queryClient.invalidateQueries({ queryKey: ['users'] });
    },
  });

  const roleLabel = (role: TenantRole) => ROLE_LABELS[role][lang];

  const columns: ColumnsType<User> = [
    { title: t('col.username'), dataIndex: 'username', width: 130, ellipsis: true },
    { title: t('col.name'), dataIndex: 'name', width: 150, ellipsis: true },
    {
      title: t('col.roles'),
      dataIndex: 'roles',
      width: 180,
      render: (roles: TenantRole[]) => (
        <Space size={[0, 4]} wrap>
          {roles.map((r) => (
            <Tag key={r} color={ROLE_COLOURS[r]}>
              {roleLabel(r)}
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('col.stores'),
      dataIndex: 'shops',
      ellipsis: true,
      render: (shops: number[], row) => {
        if (row.roles.includes('admin')) return <Typography.Text type="secondary">{t('allStores')}</Typography.Text>;
        if (shops.length === 0) return <Typography.Text type="secondary">{t('noStores')}</Typography.Text>;
        const names = shops.map((id) => storeNames.get(id) ?? `#${id}`).join(t('listSeparator'));
        return <Tooltip title={names}>{names}</Tooltip>;
      },
    },
    {
      title: t('col.created'),
      dataIndex: 'createdAt',
      width: 160,
      render: (v: number) => parseTime(v),
    },
    {
      title: t('col.lastLogin'),
      dataIndex: 'lastLoginAt',
      width: 160,
      render: (v: number | null) =>
        v === null ? <Typography.Text type="secondary">{t('neverLoggedIn')}</Typography.Text> : parseTime(v),
    },
  ];
  if (canWrite) {
    columns.push({
      title: t('col.actions'),
      key: 'actions',
      width: 160,
      fixed: 'right',
      render: (_, row) => (
        <Space size="small">
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            onClick={() => {
              setEditing(row);
              setDialogOpen(true);
            }}
          >
            {t('edit')}
          </Button>
          {row.username === ownUsername ? (
            <Tooltip title={t('deleteSelf')}>
              <Button type="link" size="small" danger disabled icon={<DeleteOutlined />}>
                {t('delete')}
              </Button>
            </Tooltip>
          ) : (
            <Popconfirm
              title={t('deleteTitle')}
              description={t('deleteConfirm', { name: row.username })}
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

  const search = (values: Filter) => {
    setFilter({ name: values.name?.trim() || undefined, role: values.role || undefined });
    setPaging((p) => ({ ...p, page: 1 }));
  };

  return (
    <Space orientation="vertical" size="middle" style={{ display: 'flex' }}>
      <Card size="small">
        <Form form={filterForm} name="userFilter" layout="inline" onFinish={search} style={{ rowGap: 8 }}>
          <Form.Item name="name" label={t('filter.name')}>
            <Input allowClear placeholder={t('filter.namePlaceholder')} style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="role" label={t('filter.role')}>
            <Select
              allowClear
              placeholder={t('filter.allRoles')}
              style={{ width: 160 }}
              options={TENANT_ROLES.map((r) => ({ value: r, label: roleLabel(r) }))}
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
          canWrite && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => {
                setEditing(null);
                setDialogOpen(true);
              }}
            >
              {t('add')}
            </Button>
          )
        }
      >
        <Table<User>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={users.data?.rows ?? []}
          loading={users.isFetching}
          scroll={{ x: 1000 }}
          locale={{ emptyText: users.isError ? t('loadFailed') : t('empty') }}
          pagination={listPagination(paging, users.data?.count ?? 0, setPaging, (total) =>
            t('total', { count: total }),
          )}
        />
      </Card>
      <UserFormModal
        open={dialogOpen}
        user={editing}
        stores={stores.data?.rows ?? []}
        storesLoading={stores.isFetching}
        onClose={() => setDialogOpen(false)}
        onSaved={() => {
          setDialogOpen(false);
          void queryClient.invalidateQueries({ queryKey: ['users'] });
        }}
      />
    </Space>
  );
}
