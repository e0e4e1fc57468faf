import { ShopOutlined } from '@ant-design/icons';
import { SHOP_LIST_LIMIT } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Modal, Select, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../platform/queryKeys';
import { useRefreshView } from '../../platform/refreshView';
import { requestList } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { currentStoreName } from './storeName';

/** The current store's name; a click opens the store switcher (shops: page 1, limit 2000). */
export function StoreSwitcher() {
  const { t } = useTranslation('navbar');
  const { message } = App.useApp();
  const curshop = useUserStore((s) => s.curshop);
  const fallback = useUserStore((s) => s.shops);
  const setCurrShop = useUserStore((s) => s.setCurrShop);
  const refresh = useRefreshView();
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState<number | undefined>();
  const [saving, setSaving] = useState(false);
  const stores = useQuery({
    queryKey: queryKeys.storePicker(),
    queryFn: () => requestList('storeList', { page: 1, limit: SHOP_LIST_LIMIT }),
    staleTime: 60_000,
  });
  const list = stores.data?.rows ?? fallback;
  const name = currentStoreName(curshop, list);

  const submit = async () => {
    if (choice === undefined || choice === curshop?.id) {
      setOpen(false);
      return;
    }
    setSaving(true);
    try {
      await setCurrShop(choice);
      setOpen(false);
      void message.success(t('storeSwitched', { name: list.find((s) => s.id === choice)?.name ?? '' }));
      refresh();
    } catch {
      // Reported by the request client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Tooltip title={t('switchStore')} placement="bottom">
        <button
          type="button"
          className="nav-item nav-store"
          data-testid="store-name"
          onClick={() => {
            setChoice(curshop?.id);
            setOpen(true);
            void stores.refetch();
          }}
        >
          <ShopOutlined />
          <span className="nav-store-name">{name ?? t('storeNotSet')}</span>
        </button>
      </Tooltip>
      <Modal
        open={open}
        title={t('switchStore')}
        onCancel={() => setOpen(false)}
        onOk={submit}
        confirmLoading={saving}
        okButtonProps={{ disabled: choice === undefined }}
        destroyOnHidden
      >
        <Select<number>
          style={{ width: '100%' }}
          showSearch={{ optionFilterProp: 'label' }}
          loading={stores.isFetching}
          value={choice}
          placeholder={t('store')}
          onChange={setChoice}
          notFoundContent={t('noStores')}
          options={list.map((s) => ({ value: s.id, label: s.name, key: s.key }))}
          data-testid="store-select"
        />
      </Modal>
    </>
  );
}
