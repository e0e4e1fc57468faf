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
  it('gives editor the groups but none of their pages, so the menu shows only the dashboard', () => {
    const filtered = filterRoutes(routes, ['editor']);
    expect(filtered.map((r) => r.path)).toEqual(['/dashboard', '/basemgr', '/logmgr', '/tmpl', '/system']);
    expect(filtered.every((r) => (r.children ?? []).length === 0)).toBe(true);
    expect(menuRoutes(routes, ['editor']).map((r) => r.path)).toEqual(['/dashboard']);
  });
  it('gives the other tenant roles the dashboard only', () => {
    for (const role of ['manager', 'clerk', 'stock'] as const) {
      expect(paths(filterRoutes(routes, [role]))).toEqual(['/dashboard']);
    }
  });
  it('hides hidden pages from the admin menu but keeps them reachable', () => {
    const menu = paths(menuRoutes(routes, ['admin']));
    expect(menu).not.toContain('/tmpl/tmpledit');
    expect(menu).not.toContain('/system/setme');
    expect(menu).toContain('/system/conf');
    expect(reachable('/system/setme', ['admin'])).toBe(true);
  });
  it('makes account settings admin only', () => {
    expect(reachable('/system/setme', ['editor'])).toBe(false);
    expect(reachable('/system/setme', ['manager'])).toBe(false);
  });
  it('gives the platform operator tenant management only, as home', () => {
    expect(paths(filterRoutes(routes, ['superadmin']))).toEqual(['/saadmin/sa/adm']);
    expect(paths(menuRoutes(routes, ['superadmin']))).toEqual(['/saadmin/sa/adm']);
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
