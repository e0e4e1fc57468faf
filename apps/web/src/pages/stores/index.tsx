import { SettingOutlined } from '@ant-design/icons';
import type { Store } from '@esl/contract';
import { Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditDialog } from '../../components/FormModal';
import { addAction, deleteAction, editAction, useRowsCall } from '../../components/list/commonActions';
import { textFilter } from '../../components/list/filters';
import { ListPage } from '../../components/list/ListPage';
import { useListQuery } from '../../components/list/useListQuery';
import { useUserStore } from '../../store/user';
import { parseTime } from '../../utils/time';
import { trimmedOrUndefined } from '../shared/rules';
import { StoreFormModal } from './StoreFormModal';
import { StoreParamsModal } from './StoreParamsModal';

interface FilterValues {
  name?: string;
  code?: string;
}

export default function StoresPage() {
  const { t } = useTranslation('stores');
  const permissions = useUserStore((s) => s.permissions);
  const getInfo = useUserStore((s) => s.getInfo);
  const canWrite = permissions.includes('store.write');
  const dialog = useEditDialog<Store>();
  const [paramsOf, setParamsOf] = useState<Store | null>(null);

  const list = useListQuery('storeList', {
    toFilter: (v: FilterValues) => ({ name: trimmedOrUndefined(v.name), code: trimmedOrUndefined(v.code) }),
  });
  // The navbar's store switcher lists the same stores, so the user's info is loaded again too.
  const changed = () => {
    list.changed();
    void getInfo().catch(() => undefined);
  };
  const remove = useRowsCall('delStore', { changed }, () => t('deleted'));

  return (
    <ListPage
      list={list}
      ns="stores"
      formName="storeFilter"
      filters={[textFilter(t, 'name', 200), textFilter(t, 'code', 160)]}
      columns={[
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
      ]}
      actions={{
        width: canWrite ? 220 : 100,
        items: (row) => [
          canWrite && editAction(t, () => dialog.edit(row)),
          { key: 'params', label: t('params'), icon: <SettingOutlined />, onClick: () => setParamsOf(row) },
          canWrite && deleteAction(t, t('deleteConfirm', { name: row.name }), () => remove.mutateAsync([row.id])),
        ],
      }}
      toolbar={[canWrite && addAction(t, () => dialog.edit(null))]}
      scrollX={1050}
    >
      <StoreFormModal
        open={dialog.open}
        store={dialog.record}
        onClose={dialog.close}
        onSaved={() => {
          dialog.close();
          changed();
        }}
      />
      <StoreParamsModal
        store={paramsOf}
        editable={permissions.includes('store.params')}
        onClose={() => setParamsOf(null)}
      />
    </ListPage>
  );
}
