import { CALLS, type CallName, hasPermission, type Permission, type Role, TENANT_ROLES } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import {
  chainAllows,
  filterRoutes,
  findChain,
  flattenRoutes,
  homePath,
  menuRoutes,
  normalisePath,
} from '../platform/permission';
import { type AppRoute, routes } from './routes';

const paths = (table: AppRoute[]): string[] => flattenRoutes(table).map((r) => r.path);
const reachable = (path: string, roles: Parameters<typeof chainAllows>[1]) =>
  chainAllows(findChain(routes, path), roles);

describe('the route table under the rule', () => {
  it('gives admin every tenant page and not tenant management', () => {
    const all = paths(filterRoutes(routes, ['admin']));
    expect(all).toContain('/basemgr/station');
    expect(all).toContain('/system/setme');
    expect(all).toContain('/tmpl/tmpledit');
    expect(all).not.toContain('/saadmin/sa/adm');
  });
  it('gives each tenant role the pages its permissions serve (issue: store staff could do nothing)', () => {
    const menu = (role: Role) => paths(menuRoutes(routes, [role]));
    const staffPages = [
      '/dashboard',
      '/basemgr',
      '/basemgr/station',
      '/basemgr/esl',
      '/basemgr/product',
      '/basemgr/schedule',
      '/basemgr/promo',
      '/basemgr/pricecheck',
      '/basemgr/problems',
      '/basemgr/wall',
    ];
    const supervisorPages = [
      '/dashboard',
      '/basemgr',
      '/basemgr/station',
      '/basemgr/ap',
      '/basemgr/esl',
      '/basemgr/product',
      '/basemgr/schedule',
      '/basemgr/promo',
      '/basemgr/pricecheck',
      '/basemgr/problems',
      '/basemgr/wall',
      '/logmgr',
      '/logmgr/sys',
      '/logmgr/esl',
      '/logmgr/op',
      '/logmgr/push',
      '/tmpl',
      '/tmpl/index',
    ];
    // Firmware upgrades are for administrators and supervisors (editor), not store managers.
    expect(menu('editor')).toEqual([...supervisorPages.slice(0, 11), '/basemgr/upgrade', ...supervisorPages.slice(11)]);
    expect(menu('manager')).toEqual(supervisorPages);
    expect(menu('clerk')).toEqual(staffPages);
    expect(menu('stock')).toEqual(staffPages);
    for (const role of TENANT_ROLES) {
      expect(reachable('/system/setme', [role]), role).toBe(true);
      expect(reachable('/system/index', [role]), role).toBe(role === 'admin');
    }
  });
  it("lists on each page exactly the roles the server lets make the page's own call", () => {
    const pageCalls: Record<string, CallName> = {
      '/basemgr/station': 'storeList',
      '/basemgr/ap': 'stationRuntime',
      '/basemgr/esl': 'tagList',
      '/basemgr/product': 'productList',
      '/basemgr/schedule': 'scheduleList',
      '/basemgr/promo': 'promotionList',
      '/basemgr/pricecheck': 'proofList',
      '/basemgr/problems': 'problemsList',
      '/basemgr/wall': 'tagWall',
      '/basemgr/upgrade': 'upgradeList',
      '/logmgr/sys': 'sysLog',
      '/logmgr/op': 'opLog',
      '/tmpl/index': 'templateList',
      '/tmpl/tmpledit': 'templateData',
      '/system/index': 'userList',
      '/system/conf': 'baseInfo',
    };
    for (const [path, call] of Object.entries(pageCalls)) {
      const route = findChain(routes, path).at(-1);
      const allowed = TENANT_ROLES.filter((role) => hasPermission([role], CALLS[call].access as Permission));
      expect(route?.roles, path).toEqual(allowed);
    }
  });
  it('hides hidden pages from the admin menu but keeps them reachable', () => {
    const menu = paths(menuRoutes(routes, ['admin']));
    expect(menu).not.toContain('/tmpl/tmpledit');
    expect(menu).not.toContain('/system/setme');
    expect(menu).toContain('/system/conf');
    expect(reachable('/system/setme', ['admin'])).toBe(true);
  });
  it('opens account settings to every tenant user (their own name, avatar and password)', () => {
    expect(reachable('/system/setme', ['editor'])).toBe(true);
    expect(reachable('/system/setme', ['clerk'])).toBe(true);
    expect(reachable('/system/setme', ['superadmin'])).toBe(false);
  });
  it('gives the platform operator tenant management, as home, and the platform log', () => {
    expect(paths(filterRoutes(routes, ['superadmin']))).toEqual([
      '/saadmin/sa/adm',
      '/saadmin/sa/syslog',
      '/saadmin/sa/firmware',
    ]);
    expect(paths(menuRoutes(routes, ['superadmin']))).toEqual([
      '/saadmin/sa/adm',
      '/saadmin/sa/syslog',
      '/saadmin/sa/firmware',
    ]);
    expect(paths(menuRoutes(routes, ['admin']))).not.toContain('/saadmin/sa/adm');
    expect(reachable('/dashboard', ['superadmin'])).toBe(false);
    expect(reachable('/saadmin/sa/adm', ['superadmin'])).toBe(true);
    expect(reachable('/saadmin/sa/adm', ['admin'])).toBe(false);
    expect(homePath(['superadmin'])).toBe('/saadmin/sa/adm');
    expect(homePath(['clerk'])).toBe('/dashboard');
  });
  it('finds the chain of a path and nothing for an unknown one', () => {
    expect(findChain(routes, '/logmgr/op/').map((r) => r.name)).toEqual(['logmgr', 'opLog']);
    expect(findChain(routes, '/nowhere')).toEqual([]);
    expect(reachable('/nowhere', ['admin'])).toBe(false);
    expect(normalisePath('/')).toBe('/');
  });
  it('has a title key, and a page or a redirect, for every entry', () => {
    for (const route of flattenRoutes(routes)) {
      expect(route.name).toMatch(/^\w+$/);
      expect(Boolean(route.page) || Boolean(route.redirect)).toBe(true);
    }
  });
});
