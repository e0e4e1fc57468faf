import { Breadcrumb as AntBreadcrumb } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { findChain, normalisePath, TENANT_HOME } from '../../platform/permission';
import { routes } from '../routes';
import { usePermittedRoutes } from './usePermittedRoutes';

/** Dashboard › group › page; the last item and the home item of the current page are not links. */
export function Breadcrumb() {
  const { t } = useTranslation(['route', 'navbar']);
  const { pathname } = useLocation();
  const { home } = usePermittedRoutes();
  const chain = findChain(routes, normalisePath(pathname));
  const items: { key: string; title: ReactNode }[] = [];
  if (home === TENANT_HOME && chain[0]?.path !== TENANT_HOME) {
    items.push({ key: TENANT_HOME, title: <Link to={TENANT_HOME}>{t('route:dashboard')}</Link> });
  }
  chain.forEach((route, i) => {
    const last = i === chain.length - 1;
    const label = t(`route:${route.name}`);
    items.push({
      key: route.path,
      title: last ? (
        <span className="no-redirect">{label}</span>
      ) : (
        <Link to={route.redirect ?? route.path}>{label}</Link>
      ),
    });
  });
  return <AntBreadcrumb className="app-breadcrumb" items={items} data-testid="breadcrumb" />;
}
