import type { Role } from '@esl/contract';
import { type Permission, rolesWith } from '@esl/contract/roles';
import type { ComponentType } from 'react';
import type { GuardedRoute } from '../platform/permission';
import type { IconName } from './layout/icons';

export type PageModule = { default: ComponentType };

/**
 * One entry of the route table. The same table drives the router, the sidebar menu, the
 * breadcrumb, the tags view, the header search and the guard.
 */
export interface AppRoute extends GuardedRoute<AppRoute> {
  /** Absolute path. */
  path: string;
  /** i18n key in namespace `route`. */
  name: string;
  /** Menu icon, by name (the icons load with the layout, not with the first screen). */
  icon?: IconName;
  /** A tab in the tags view that cannot be closed. */
  affix?: boolean;
  /** A group's own path goes here. */
  redirect?: string;
  /** The page, loaded on first visit (route-level code splitting). */
  page?: () => Promise<PageModule>;
}

/**
 * A page lists the roles whose permissions include what the page needs (the contract's role →
 * permission table, `@esl/contract/roles`); inside it, each action checks its own permission.
 */
const needs = (permission: Permission): readonly Role[] => rolesWith(permission);

/** A group lists every role one of its pages lists; a group with an open page is open. */
function withGroupRoles(table: AppRoute[]): AppRoute[] {
  return table.map((route) => {
    if (!route.children) return route;
    const children = withGroupRoles(route.children);
    if (children.some((child) => !child.roles)) return { ...route, children };
    return { ...route, children, roles: [...new Set(children.flatMap((child) => child.roles ?? []))] };
  });
}

/** Routes inside the main layout, in menu order (SPEC.md §2). */
export const routes: AppRoute[] = withGroupRoles([
  {
    path: '/dashboard',
    name: 'dashboard',
    icon: 'dashboard',
    affix: true,
    page: () => import('../pages/dashboard/index'),
  },
  {
    path: '/basemgr',
    name: 'basemgr',
    icon: 'shop',
    redirect: '/basemgr/station',
    children: [
      {
        path: '/basemgr/station',
        name: 'station',
        icon: 'shop',
        roles: needs('store.read'),
        page: () => import('../pages/stores/index'),
      },
      {
        path: '/basemgr/ap',
        name: 'ap',
        icon: 'wifi',
        roles: needs('station.read'),
        page: () => import('../pages/stations/index'),
      },
      {
        path: '/basemgr/esl',
        name: 'esl',
        icon: 'tags',
        roles: needs('tag.read'),
        page: () => import('../pages/tags/index'),
      },
      {
        path: '/basemgr/product',
        name: 'product',
        icon: 'shopping',
        roles: needs('product.read'),
        page: () => import('../pages/products/index'),
      },
      {
        path: '/basemgr/schedule',
        name: 'schedule',
        icon: 'clock',
        roles: needs('product.read'),
        page: () => import('../pages/schedule/index'),
      },
      {
        // Promotions (docs/PROMOTIONS.md): SPEC.md names no such page; it sits beside the schedule.
        path: '/basemgr/promo',
        name: 'promo',
        icon: 'gift',
        roles: needs('product.read'),
        page: () => import('../pages/promotions/index'),
      },
      {
        // Proof of price (docs/PROOF.md): SPEC.md names no such page; it sits beside the tags.
        path: '/basemgr/pricecheck',
        name: 'proof',
        icon: 'safety',
        roles: needs('tag.read'),
        page: () => import('../pages/proof/index'),
      },
      {
        // Problems to act on (docs/PROBLEMS.md): SPEC.md names no such page; it sits beside the tags.
        path: '/basemgr/problems',
        name: 'problems',
        icon: 'alert',
        roles: needs('tag.read'),
        page: () => import('../pages/problems/index'),
      },
      {
        // The store wall (docs/SHELF.md): SPEC.md names no such page; it sits beside the tags.
        path: '/basemgr/wall',
        name: 'wall',
        icon: 'layout',
        roles: needs('tag.read'),
        page: () => import('../pages/wall/index'),
      },
      {
        path: '/basemgr/upgrade',
        name: 'upgrade',
        icon: 'rocket',
        roles: needs('firmware.upgrade'),
        page: () => import('../pages/firmware/rollouts/index'),
      },
    ],
  },
  {
    path: '/logmgr',
    name: 'logmgr',
    icon: 'fileSearch',
    redirect: '/logmgr/sys',
    children: [
      {
        path: '/logmgr/sys',
        name: 'sysLog',
        icon: 'fileText',
        roles: needs('log.read'),
        page: () => import('../pages/logs/system/index'),
      },
      {
        path: '/logmgr/esl',
        name: 'eslLog',
        icon: 'profile',
        roles: needs('log.read'),
        page: () => import('../pages/logs/tags/index'),
      },
      {
        path: '/logmgr/op',
        name: 'opLog',
        icon: 'audit',
        roles: needs('log.read'),
        page: () => import('../pages/logs/operations/index'),
      },
      {
        path: '/logmgr/push',
        name: 'pushLog',
        icon: 'cloudUpload',
        roles: needs('log.read'),
        page: () => import('../pages/logs/pushes/index'),
      },
    ],
  },
  {
    path: '/tmpl',
    name: 'tmpl',
    icon: 'layout',
    redirect: '/tmpl/index',
    children: [
      {
        path: '/tmpl/index',
        name: 'tmplIndex',
        icon: 'appstore',
        roles: needs('template.read'),
        page: () => import('../pages/templates/list/index'),
      },
      {
        path: '/tmpl/tmpledit',
        name: 'tmplEdit',
        icon: 'edit',
        roles: needs('template.read'),
        hidden: true,
        page: () => import('../pages/templates/editor/index'),
      },
    ],
  },
  {
    path: '/system',
    name: 'system',
    icon: 'setting',
    redirect: '/system/index',
    children: [
      {
        path: '/system/index',
        name: 'users',
        icon: 'team',
        roles: needs('user.read'),
        page: () => import('../pages/users/index'),
      },
      {
        path: '/system/conf',
        name: 'conf',
        icon: 'control',
        roles: needs('tenant.config'),
        page: () => import('../pages/tenantSettings/index'),
      },
      {
        path: '/system/setme',
        name: 'setme',
        icon: 'idcard',
        hidden: true,
        page: () => import('../pages/account/index'),
      },
    ],
  },
  {
    path: '/saadmin/sa/adm',
    name: 'tenants',
    icon: 'apartment',
    roles: ['superadmin'],
    platform: true,
    hidden: true,
    page: () => import('../pages/tenants/index'),
  },
  {
    // The same screen as /logmgr/sys; the server gives the operator the platform's rows.
    path: '/saadmin/sa/syslog',
    name: 'platformLog',
    icon: 'fileText',
    roles: ['superadmin'],
    platform: true,
    hidden: true,
    page: () => import('../pages/logs/system/index'),
  },
  {
    path: '/saadmin/sa/firmware',
    name: 'firmware',
    icon: 'cloudUpload',
    roles: ['superadmin'],
    platform: true,
    hidden: true,
    page: () => import('../pages/firmware/files/index'),
  },
]);

/** Paths reachable without a token (SPEC.md §2, navigation guard). */
export const WHITE_LIST = ['/login', '/auth-redirect'];

/** Public pages outside the layout, with their title keys. */
export const PUBLIC_TITLES: Record<string, string> = {
  '/login': 'login',
  '/auth-redirect': 'authRedirect',
  '/404': 'page404',
  '/401': 'page401',
};
