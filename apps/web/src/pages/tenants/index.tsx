import { KeyOutlined, LockOutlined } from '@ant-design/icons';
import type { Tenant } from '@esl/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Result, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addAction, deleteAction, useRowsCall } from '../../components/list/commonActions';
import { textFilter } from '../../components/list/filters';
import { ListPage } from '../../components/list/ListPage';
import { useListQuery } from '../../components/list/useListQuery';
import { request } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { parseTime } from '../../utils/time';
import { trimmedOrUndefined } from '../shared/rules';
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
  const { modal } = App.useApp();
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<Tenant | null>(null);

  const list = useListQuery('tenantList', {
    toFilter: (v: { name?: string }) => ({ name: trimmedOrUndefined(v.name) }),
  });

  const renew = useMutation({
    mutationFn: (tenant: Tenant) => request('renewTenantKey', { id: tenant.id }),
    onSuccess: (keys, tenant) => {
      list.changed();
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

  const remove = useRowsCall('delTenant', list, () => t('deleted'));

  return (
    <ListPage
      list={list}
      ns="tenants"
      formName="tenantFilter"
      filters={[textFilter(t, 'name', 220)]}
      columns={[
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
      ]}
      actions={{
        width: 350,
        items: (row) => [
          {
            key: 'renew',
            label: t('renew'),
            icon: <KeyOutlined />,
            confirm: { title: t('renewTitle'), description: t('renewConfirm', { name: row.name }) },
            onClick: () => renew.mutateAsync(row),
          },
          { key: 'reset', label: t('resetPwd'), icon: <LockOutlined />, onClick: () => setResetting(row) },
          deleteAction(t, t('deleteConfirm', { name: row.name }), () => remove.mutateAsync([row.id])),
        ],
      }}
      toolbar={[addAction(t, () => setAdding(true))]}
      scrollX={1500}
    >
      <AddTenantModal
        open={adding}
        onClose={() => setAdding(false)}
        onSaved={() => {
          setAdding(false);
          list.changed();
        }}
      />
      <ResetPasswordModal tenant={resetting} onClose={() => setResetting(null)} />
    </ListPage>
  );
}
