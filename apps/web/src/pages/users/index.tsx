import { DeleteOutlined } from '@ant-design/icons';
import { ROLE_LABELS, SHOP_LIST_LIMIT, TENANT_ROLES, type TenantRole, type User } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditDialog } from '../../components/FormModal';
import { addAction, deleteAction, editAction, useRowsCall } from '../../components/list/commonActions';
import { selectFilter, textFilter } from '../../components/list/filters';
import { ListPage } from '../../components/list/ListPage';
import { useListQuery } from '../../components/list/useListQuery';
import { queryKeys } from '../../platform/queryKeys';
import { requestList } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { sentenceCase } from '../../utils/format';
import { parseTime } from '../../utils/time';
import { trimmedOrUndefined } from '../shared/rules';
import { UserFormModal } from './UserFormModal';

interface FilterValues {
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
  const permissions = useUserStore((s) => s.permissions);
  const canWrite = permissions.includes('user.write');
  const ownUsername = useUserStore((s) => s.username);
  const lang = i18n.language === 'en' ? 'en' : 'zh-CN';
  const roleLabel = (role: TenantRole) => sentenceCase(ROLE_LABELS[role][lang]);
  const dialog = useEditDialog<User>();

  const list = useListQuery('userList', {
    toFilter: (v: FilterValues) => ({ name: trimmedOrUndefined(v.name), role: v.role || undefined }),
  });
  const stores = useQuery({
    queryKey: queryKeys.allStores(),
    queryFn: () => requestList('storeList', { page: 1, limit: SHOP_LIST_LIMIT }),
  });
  const storeNames = useMemo(() => new Map((stores.data?.rows ?? []).map((s) => [s.id, s.name])), [stores.data]);

  const remove = useRowsCall('delUser', list, () => t('deleted'));

  return (
    <ListPage
      list={list}
      ns="users"
      formName="userFilter"
      filters={[
        textFilter(t, 'name', 200),
        selectFilter(
          t,
          'role',
          160,
          TENANT_ROLES.map((r) => ({ value: r, label: roleLabel(r) })),
          { all: 'filter.allRoles' },
        ),
      ]}
      columns={[
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
            if (row.roles.includes('admin')) {
              return <Typography.Text type="secondary">{t('allStores')}</Typography.Text>;
            }
            if (shops.length === 0) return <Typography.Text type="secondary">{t('noStores')}</Typography.Text>;
            const names = shops.map((id) => storeNames.get(id) ?? `#${id}`).join(t('listSeparator'));
            return <Tooltip title={names}>{names}</Tooltip>;
          },
        },
        { title: t('col.created'), dataIndex: 'createdAt', width: 160, render: (v: number) => parseTime(v) },
        {
          title: t('col.lastLogin'),
          dataIndex: 'lastLoginAt',
          width: 160,
          render: (v: number | null) =>
            v === null ? <Typography.Text type="secondary">{t('neverLoggedIn')}</Typography.Text> : parseTime(v),
        },
      ]}
      actions={
        canWrite
          ? {
              width: 160,
              items: (row) => [
                editAction(t, () => dialog.edit(row)),
                row.username === ownUsername
                  ? {
                      key: 'delete',
                      label: t('delete'),
                      icon: <DeleteOutlined />,
                      danger: true,
                      disabled: true,
                      tooltip: t('deleteSelf'),
                      onClick: () => undefined,
                    }
                  : deleteAction(t, t('deleteConfirm', { name: row.username }), () => remove.mutateAsync([row.id])),
              ],
            }
          : undefined
      }
      toolbar={[canWrite && addAction(t, () => dialog.edit(null))]}
      scrollX={1000}
    >
      <UserFormModal
        open={dialog.open}
        user={dialog.record}
        stores={stores.data?.rows ?? []}
        storesLoading={stores.isFetching}
        onClose={dialog.close}
        onSaved={() => {
          dialog.close();
          list.changed();
        }}
      />
    </ListPage>
  );
}
