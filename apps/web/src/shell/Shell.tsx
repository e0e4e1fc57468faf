import { PRODUCT_TITLE } from '@esl/contract';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { findChain, normalisePath } from '../platform/permission';
import { useUserStore } from '../store/user';
import { PUBLIC_TITLES, routes } from './routes';

/** The route's title key: a table entry's name, a public page's key, or none. */
export function titleKeyOf(pathname: string): string | undefined {
  const path = normalisePath(pathname);
  const chain = findChain(routes, path);
  return chain.at(-1)?.name ?? PUBLIC_TITLES[path];
}

/** SPEC.md §2: the route title, the company (when the tenant has one) and the product title. */
export function pageTitle(route: string | undefined, company: string | undefined, product: string): string {
  return [route, company?.trim(), product].filter(Boolean).join(' - ');
}

/** Root of every screen: keeps the page title as 'route title - company - Electronic price tag system'. */
export function Shell() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const company = useUserStore((s) => s.tenant?.company);
  useEffect(() => {
    const key = titleKeyOf(pathname);
    const product = t('common:title', { defaultValue: PRODUCT_TITLE });
    document.title = pageTitle(key ? t(`route:${key}`) : undefined, company, product);
  }, [pathname, t, company]);
  return <Outlet />;
}
