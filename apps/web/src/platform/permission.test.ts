import { describe, expect, it } from 'vitest';
import { type GuardedRoute, routeAllows } from './permission';

interface AppRoute extends GuardedRoute<AppRoute> {
  name: string;
}

describe('routeAllows (SPEC.md §6)', () => {
  const open: AppRoute = { path: '/x', name: 'x' };
  const editorGroup: AppRoute = { path: '/g', name: 'g', roles: ['admin', 'editor'] };
  const adminOnly: AppRoute = { path: '/a', name: 'a', roles: ['admin'] };
  const platform: AppRoute = { path: '/p', name: 'p', roles: ['superadmin'], platform: true };

  it('lets admin see every role-based route', () => {
    expect(routeAllows(adminOnly, ['admin'])).toBe(true);
    expect(routeAllows({ path: '/m', name: 'm', roles: ['manager'] }, ['admin'])).toBe(true);
  });
  it('lets other roles see a route only when its list names one of theirs', () => {
    expect(routeAllows(editorGroup, ['editor'])).toBe(true);
    expect(routeAllows(adminOnly, ['editor'])).toBe(false);
    expect(routeAllows(adminOnly, ['clerk', 'stock'])).toBe(false);
    expect(routeAllows(editorGroup, ['clerk', 'editor'])).toBe(true);
  });
  it('opens a route with no list to every tenant role', () => {
    for (const role of ['admin', 'editor', 'manager', 'clerk', 'stock'] as const) {
      expect(routeAllows(open, [role])).toBe(true);
    }
  });
  it('keeps platform routes for the platform operator alone, admin included', () => {
    expect(routeAllows(platform, ['superadmin'])).toBe(true);
    expect(routeAllows(platform, ['admin'])).toBe(false);
    expect(routeAllows(platform, ['editor'])).toBe(false);
    expect(routeAllows(open, ['superadmin'])).toBe(false);
  });
});
