import { PlusOutlined, ShopOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUserStore } from '../../store/user';
import { useCurrentStoreId } from './currentStore';

/** Where stores are added (the console's historical path). */
const STORES_PATH = '/basemgr/station';

/**
 * A tenant with no store yet (its first sign-in): nothing to choose in the top bar, so the way
 * on is to create one; a role that may not is told who can (issue 27 item 6).
 */
function NoStoreYet() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const canAdd = useUserStore((s) => s.permissions.includes('store.write'));
  return (
    <div data-testid="no-store-yet">
      <Result
        status="info"
        icon={<ShopOutlined />}
        title={t('firstRun.title')}
        subTitle={t(canAdd ? 'firstRun.steps' : 'firstRun.askAdmin')}
        extra={
          canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(STORES_PATH)}>
              {t('firstRun.addStore')}
            </Button>
          )
        }
      />
    </div>
  );
}

interface Props {
  /** 'Please set store first', in the page's language. */
  title: string;
  /** Where to set it. */
  hint: string;
  /** The page, rendered with the current store's id. */
  children: (storeId: number) => ReactNode;
}

/** Shows the page only when a store is current; otherwise says to set one first (SPEC.md §5). */
export function StoreRequired({ title, hint, children }: Props) {
  const storeId = useCurrentStoreId();
  const noStores = useUserStore((s) => s.shops.length === 0);
  if (storeId === null && noStores) return <NoStoreYet />;
  if (storeId === null) {
    return (
      <div data-testid="store-required">
        <Result status="warning" icon={<ShopOutlined />} title={title} subTitle={hint} />
      </div>
    );
  }
  return children(storeId);
}

/**
 * A route's page over one store's records: says to set a store first, in the namespace's
 * `needStore` and `needStoreHint`, else shows `Screen` for the current store.
 */
export function storeScreen(ns: string, Screen: ComponentType<{ storeId: number }>) {
  return function StoreScreen() {
    const { t } = useTranslation(ns);
    return (
      <StoreRequired title={t('needStore')} hint={t('needStoreHint')}>
        {(storeId) => <Screen storeId={storeId} />}
      </StoreRequired>
    );
  };
}
