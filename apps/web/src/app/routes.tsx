import {
  ApartmentOutlined,
  AppstoreOutlined,
  AuditOutlined,
  CloudUploadOutlined,
  ControlOutlined,
  DashboardOutlined,
  EditOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  IdcardOutlined,
  LayoutOutlined,
  ProfileOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingOutlined,
  TagsOutlined,
  TeamOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { Role } from '@esl/contract';
import type { ComponentType } from 'react';

export type PageModule = { default: ComponentType };

/**
 * One entry of the route table. The same table drives the router, the sidebar menu, the
 * breadcrumb, the tags view, the header search and the guard.
 */
export interface AppRoute {
  /** Absolute path. */
  path: string;
  /** i18n key in namespace `route`. */
  name: string;
  icon?: ComponentType;
  /** Roles that may open it (SPEC.md §6); none = every tenant user. */
  roles?: readonly Role[];
  /** Platform-operator screens: only role `superadmin`, and no tenant screen for that role. */
  platform?: boolean;
  /** Not shown in the menu or the header search. */
  hidden?: boolean;
  /** A tab in the tags view that cannot be closed. */
  affix?: boolean;
  /** A group's own path goes here. */
  redirect?: string;
  children?: AppRoute[];
  /** The page, loaded on first visit (route-level code splitting). */
  page?: () => Promise<PageModule>;
}

const GROUP_ROLES: readonly Role[] = ['admin', 'editor'];
const PAGE_ROLES: readonly Role[] = ['admin'];

/** Routes inside the main layout, in menu order (SPEC.md §2). */
export const routes: AppRoute[] = [
  {
    path: '/dashboard',
    name: 'dashboard',
    icon: DashboardOutlined,
    affix: true,
    page: () => import('../pages/dashboard/index'),
  },
  {
    path: '/basemgr',
    name: 'basemgr',
    icon: ShopOutlined,
    roles: GROUP_ROLES,
    redirect: '/basemgr/station',
    children: [
      {
        path: '/basemgr/station',
        name: 'station',
        icon: ShopOutlined,
        roles: PAGE_ROLES,
        page: () => import('../pages/basemgr/station/index'),
      },
      {
        path: '/basemgr/ap',
        name: 'ap',
        icon: WifiOutlined,
        roles: PAGE_ROLES,
        page: () => import('../pages/_pending/ap'),
      },
      {
        path: '/basemgr/esl',
        name: 'esl',
        icon: TagsOutlined,
        roles: PAGE_ROLES,
        page: () => import('../pages/_pending/esl'),
      },
      {
        path: '/basemgr/product',
        name: 'product',
        icon: ShoppingOutlined,
        roles: PAGE_ROLES,
        page: () => import('../pages/_pending/product'),
      },
    ],
  },
  {
    path: '/logmgr',
    name: 'logmgr',
    icon: FileSearchOutlined,
    roles: GROUP_ROLES,
    redirect: '/logmgr/sys',
    children: [
      {
        path: '/logmgr/sys',
        name: 'sysLog',
        icon: FileTextOutlined,
        roles: PAGE_ROLES,
        page: () => import('../pages/logmgr/sys/index'),
      },
      {
        path: '/logmgr/esl',
        name: 'eslLog',
        icon: ProfileOutlined,
        roles: PAGE_ROLES,
        page: () => import('../pages/_pending/eslLog'),
      },
      {
        path: '/logmgr/op',
        name: 'opLog',
        icon: AuditOutlined,
        roles: PAGE_ROLES,
        page: () => import('../pages/logmgr/op/index'),
      },
      {
        path: '/logmgr/push',
        name: 'pushLog',
        icon: CloudUploadOutlined,
        roles: PAGE_ROLES,
        page: () => import('../pages/_pending/pushLog'),
      },
    ],
  },
  {
    path: '/tmpl',
    name: 'tmpl',
    icon: LayoutOutlined,
    roles: GROUP_ROLES,
    redirect: '/tmpl/index',
    children: [
      {
        path: '/tmpl/index',
        name: 'tmplIndex',
        icon: AppstoreOutlined,
        roles: PAGE_ROLES,
        page: () => import('../pages/_pending/tmpl'),
      },
      {
        path: '/tmpl/tmpledit',
        name: 'tmplEdit',
        icon: EditOutlined,
        roles: PAGE_ROLES,
        hidden: true,
        page: () => import('../pages/_pending/tmplEdit'),
      },
    ],
  },
  {
    path: '/system',
    name: 'system',
    icon: SettingOutlined,
    roles: GROUP_ROLES,
    redirect: '/system/index',
    children: [
      {
        path: '/system/index',
        name: 'users',
        icon: TeamOutlined,
        roles: PAGE_ROLES,
        page: () => import('../pages/system/index/index'),
      },
      {
        path: '/system/conf',
        name: 'conf',
        icon: ControlOutlined,
        roles: PAGE_ROLES,
        page: () => import('../pages/system/conf/index'),
      },
      {
        path: '/system/setme',
        name: 'setme',
        icon: IdcardOutlined,
        roles: PAGE_ROLES,
        hidden: true,
        page: () => import('../pages/system/setme/index'),
      },
    ],
  },
  {
    path: '/saadmin/sa/adm',
    name: 'tenants',
    icon: ApartmentOutlined,
    roles: ['superadmin'],
    platform: true,
    hidden: true,
    page: () => import('../pages/saadmin/adm/index'),
  },
];

/** Paths reachable without a token (SPEC.md §2, navigation guard). */
export const WHITE_LIST = ['/login', '/auth-redirect'];

/** Public pages outside the layout, with their title keys. */
export const PUBLIC_TITLES: Record<string, string> = {
  '/login': 'login',
  '/auth-redirect': 'authRedirect',
  '/404': 'page404',
  '/401': 'page401',
};

export const PLATFORM_HOME = '/saadmin/sa/adm';
export const TENANT_HOME = '/dashboard';
export const REDIRECT_PREFIX = '/redirect';
