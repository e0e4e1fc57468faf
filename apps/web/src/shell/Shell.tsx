import { PRODUCT_TITLE } from '@esl/contract';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { findChain, normalisePath } from '../platform/permission';
import { PUBLIC_TITLES, routes } from './routes';

/** The route's title key: a table entry's name, a public page's key, or none. */
export function titleKeyOf(pathname: string): string | undefined {
  const path = normalisePath(pathname);
  const chain = findChain(routes, path);
  return chain.at(-1)?.name ?? PUBLIC_TITLES[path];
}

/** Root of every screen: keeps the page title as 'route title - electronic price tag system'. */
export function Shell() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  useEffect(() => {
    const key = titleKeyOf(pathname);
    const product = t('common:title', { defaultValue: PRODUCT_TITLE });
    document.title = key ? `${t(`route:${key}`)} - ${product}` : product;
  }, [pathname, t]);
  return <Outlet />;
}
