import { ShopOutlined } from '@ant-design/icons';
import { SHOP_LIST_LIMIT } from '@esl/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Tooltip } from 'antd';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OnceOpened } from '../../components/OnceOpened';
import { queryKeys } from '../../platform/queryKeys';
import { useRefreshView } from '../../platform/refreshView';
import { requestList } from '../../platform/request';
import { useUserStore } from '../../store/user';
import { currentStoreName } from './storeName';

// The dialog's select loads when it first opens, not with the layout every screen needs.
const StoreSwitcherDialog = lazy(() => import('./StoreSwitcherDialog'));

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
      <OnceOpened open={open}>
        <StoreSwitcherDialog
          open={open}
          stores={list}
          loading={stores.isFetching}
          choice={choice}
          onChoice={setChoice}
          saving={saving}
          onOk={() => void submit()}
          onCancel={() => setOpen(false)}
        />
      </OnceOpened>
    </>
  );
}
