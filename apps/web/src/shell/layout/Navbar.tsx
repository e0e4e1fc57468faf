import {
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  QrcodeOutlined,
  SwapOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Avatar, Dropdown, type MenuProps, Tooltip } from 'antd';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { LangSelect } from '../../components/LangSelect';
import { OnceOpened } from '../../components/OnceOpened';
import { chainAllows, findChain, isPlatformOperator } from '../../platform/permission';
import { queryClient } from '../../platform/query';
import { useAppStore } from '../../store/app';
import { useSettingsStore } from '../../store/settings';
import { useUserStore } from '../../store/user';
import { loginPath } from '../guard';
import { routes } from '../routes';
import { Breadcrumb } from './Breadcrumb';
import { ErrorLog } from './ErrorLog';
import { HeaderSearch } from './HeaderSearch';
import { roleChoices, roleLabelKey } from './roleSwitch';
import { Screenfull } from './Screenfull';
import { SettingsDrawer } from './SettingsDrawer';
import { SizeSelect } from './SizeSelect';
import { StoreSwitcher } from './StoreSwitcher';

// The dialogs load when they first open, not with the layout every screen needs.
const PdaDialog = lazy(() => import('./PdaDialog').then((m) => ({ default: m.PdaDialog })));
const RoleSwitcher = lazy(() => import('./RoleSwitcher').then((m) => ({ default: m.RoleSwitcher })));

const ACCOUNT_SETTINGS = '/system/setme';

/** Hamburger, breadcrumb and the header tools. */
export function Navbar() {
  const { t } = useTranslation('navbar');
  const navigate = useNavigate();
  const location = useLocation();
  const opened = useAppStore((s) => s.sidebarOpened);
  const device = useAppStore((s) => s.device);
  const toggleSidebar = useAppStore((s) => s.toggleSidebar);
  const errorLog = useSettingsStore((s) => s.errorLog);
  const { name, username, avatar, roles, role, switchable, tenant, logout } = useUserStore();
  const [pdaOpen, setPdaOpen] = useState(false);
  const [roleOpen, setRoleOpen] = useState(false);
  const maySwitch = roleChoices(switchable, role).length > 0;
  const tenantUser = !isPlatformOperator(roles);
  const mayEditAccount = chainAllows(findChain(routes, ACCOUNT_SETTINGS), roles);

  const items: MenuProps['items'] = [
    // Whose console this is: the tenant (its name follows /system/conf, which reloads the view).
    ...(tenant
      ? [
          {
            key: 'tenant',
            disabled: true,
            label: <span data-testid="tenant-name">{t('tenant', { name: tenant.name })}</span>,
          },
        ]
      : []),
    // The acting role, visible in the dropdown, and the way to change it.
    ...(maySwitch
      ? [
          {
            key: 'acting',
            disabled: true,
            label: (
              <span data-testid="acting-role" data-role={role || 'all'}>
                {t('actingAs', { role: t(roleLabelKey(role)) })}
              </span>
            ),
          },
          { key: 'role', icon: <SwapOutlined />, label: <span data-testid="switch-role">{t('switchRole')}</span> },
        ]
      : []),
    ...(mayEditAccount ? [{ key: 'account', icon: <UserOutlined />, label: t('accountSettings') }] : []),
    ...(tenantUser ? [{ key: 'pda', icon: <QrcodeOutlined />, label: t('pda') }] : []),
    { type: 'divider' as const },
    { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="logout">{t('logout')}</span> },
  ];

  const onMenu = async (key: string) => {
    if (key === 'account') navigate(ACCOUNT_SETTINGS);
    else if (key === 'pda') setPdaOpen(true);
    else if (key === 'role') setRoleOpen(true);
    else if (key === 'logout') {
      const fullPath = `${location.pathname}${location.search}`;
      await logout();
      queryClient.clear();
      navigate(loginPath(fullPath));
    }
  };

  return (
    <div className="navbar" data-testid="navbar">
      <button
        type="button"
        className="hamburger-container"
        aria-label={t('hamburger')}
        aria-expanded={opened}
        data-testid="hamburger"
        onClick={toggleSidebar}
      >
        {opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
      </button>
      <Breadcrumb />
      <div className="right-menu">
        {device !== 'mobile' && <HeaderSearch />}
        {errorLog && <ErrorLog />}
        {device !== 'mobile' && <Screenfull />}
        <SizeSelect />
        <LangSelect />
        {tenantUser && (
          <Tooltip title={t('pda')} placement="bottom">
            <button
              type="button"
              className="nav-item"
              aria-label={t('pda')}
              data-testid="pda-open"
              onClick={() => setPdaOpen(true)}
            >
              <QrcodeOutlined />
            </button>
          </Tooltip>
        )}
        {tenantUser && <StoreSwitcher />}
        <SettingsDrawer />
        <Dropdown trigger={['click']} menu={{ items, onClick: ({ key }) => void onMenu(key) }}>
          <button type="button" className="nav-item avatar-container" data-testid="avatar-menu">
            <Avatar size={32} shape="square" src={avatar || undefined} icon={<UserOutlined />} />
            <span className="user-name">{name || username}</span>
          </button>
        </Dropdown>
      </div>
      {tenantUser && (
        <OnceOpened open={pdaOpen}>
          <PdaDialog open={pdaOpen} onClose={() => setPdaOpen(false)} />
        </OnceOpened>
      )}
      {maySwitch && (
        <OnceOpened open={roleOpen}>
          <RoleSwitcher open={roleOpen} onClose={() => setRoleOpen(false)} />
        </OnceOpened>
      )}
    </div>
  );
}
