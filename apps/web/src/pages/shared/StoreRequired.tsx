import { ShopOutlined } from '@ant-design/icons';
import { Result } from 'antd';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentStoreId } from './currentStore';

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
