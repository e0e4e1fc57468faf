import { Menu, type MenuProps } from 'antd';
import { createElement, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { findChain, normalisePath } from '../../platform/permission';
import { useAppStore } from '../../store/app';
import { useSettingsStore } from '../../store/settings';
import { type AppRoute, routes } from '../routes';
import { ICONS } from './icons';
import { usePermittedRoutes } from './usePermittedRoutes';

type Item = Required<MenuProps>['items'][number];

function toItems(table: AppRoute[], t: (key: string) => string): Item[] {
  return table.map((route) => ({
    key: route.path,
    icon: route.icon ? createElement(ICONS[route.icon]) : undefined,
    label: <span data-testid={`menu-${route.name}`}>{t(`route:${route.name}`)}</span>,
    children: route.children ? toItems(route.children, t) : undefined,
  }));
}

/** The collapsible menu built from the permitted routes. */
export function Sidebar() {
  const { t } = useTranslation(['route', 'common']);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { menu } = usePermittedRoutes();
  const opened = useAppStore((s) => s.sidebarOpened);
  const showLogo = useSettingsStore((s) => s.sidebarLogo);
  const path = normalisePath(pathname);
  const groupPath = findChain(routes, path)[0]?.path;
  const [openKeys, setOpenKeys] = useState<string[]>(groupPath ? [groupPath] : []);

  useEffect(() => {
    if (groupPath) setOpenKeys((keys) => (keys.includes(groupPath) ? keys : [...keys, groupPath]));
  }, [groupPath]);

  const items = useMemo(() => toItems(menu, t), [menu, t]);
  const chain = findChain(routes, path);
  // A hidden page lights up its nearest shown ancestor (e.g. the template editor → Templates).
  const selected = [...chain].reverse().find((r) => !r.hidden)?.path ?? path;

  return (
    <div className="sidebar-container" data-testid="sidebar">
      {showLogo && (
        <div className="sidebar-logo">
          <span className="sidebar-logo-mark">ESL</span>
          {opened && <span className="sidebar-logo-title">{t('common:title')}</span>}
        </div>
      )}
      <div className="sidebar-scroll">
        <Menu
          mode="inline"
          theme="dark"
          inlineCollapsed={!opened}
          items={items}
          selectedKeys={[selected]}
          openKeys={opened ? openKeys : undefined}
          onOpenChange={(keys) => setOpenKeys(keys)}
          onClick={({ key }) => navigate(key)}
        />
      </div>
    </div>
  );
}
