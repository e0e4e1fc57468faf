import type { Role } from '@esl/contract';
import { type AppRoute, PLATFORM_HOME, TENANT_HOME } from './routes';

/** The platform operator (role `superadmin`) sees only platform screens (docs/WEB.md). */
export function isPlatformOperator(roles: readonly Role[]): boolean {
  return roles.includes('superadmin');
}

/**
 * SPEC.md §6 for one route on its own: `admin` sees every role-based route; other roles see a
 * route whose role list names one of theirs; a route with no list is open. Platform routes are
 * for `superadmin` only, and a platform operator sees no tenant route.
 */
export function routeAllows(route: AppRoute, roles: readonly Role[]): boolean {
  if (isPlatformOperator(roles)) return route.platform === true;
  if (route.platform) return false;
  if (roles.includes('admin')) return true;
  if (!route.roles) return true;
  return roles.some((role) => route.roles?.includes(role));
}

/** A route is reachable when it and every route above it allow the roles. */
export function chainAllows(chain: readonly AppRoute[], roles: readonly Role[]): boolean {
  return chain.length > 0 && chain.every((route) => routeAllows(route, roles));
}

/** The permitted part of the table, children filtered the same way (groups may end up empty). */
export function filterRoutes(table: readonly AppRoute[], roles: readonly Role[]): AppRoute[] {
  const out: AppRoute[] = [];
  for (const route of table) {
    if (!routeAllows(route, roles)) continue;
    out.push(route.children ? { ...route, children: filterRoutes(route.children, roles) } : { ...route });
  }
  return out;
}

/**
 * What the sidebar shows: permitted, not hidden (the platform operator's own screens aside),
 * and a group only while at least one of its children is shown.
 */
export function menuRoutes(table: readonly AppRoute[], roles: readonly Role[]): AppRoute[] {
  const out: AppRoute[] = [];
  for (const route of filterRoutes(table, roles)) {
    // A platform screen is hidden from everyone else's menu, but it is the operator's home.
    if (route.hidden && !(route.platform && isPlatformOperator(roles))) continue;
    if (route.children) {
      const children = menuRoutes(route.children, roles);
      if (children.length === 0) continue;
      out.push({ ...route, children });
    } else {
      out.push(route);
    }
  }
  return out;
}

/** Where `/` leads: the dashboard, or tenant management for the platform operator. */
export function homePath(roles: readonly Role[]): string {
  return isPlatformOperator(roles) ? PLATFORM_HOME : TENANT_HOME;
}

/** The chain of table entries from the top down to the route at `path`, or [] when none. */
export function findChain(table: readonly AppRoute[], path: string): AppRoute[] {
  const wanted = normalisePath(path);
  for (const route of table) {
    if (route.path === wanted) return [route];
    if (route.children) {
      const below = findChain(route.children, wanted);
      if (below.length > 0) return [route, ...below];
    }
  }
  return [];
}

/** Every entry with a page, depth first. */
export function flattenRoutes(table: readonly AppRoute[]): AppRoute[] {
  return table.flatMap((route) => [route, ...(route.children ? flattenRoutes(route.children) : [])]);
}

export function normalisePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}
