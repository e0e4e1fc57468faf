import type { Role } from '@esl/contract';

/**
 * What access decisions read of a route: its path, the roles it names, whether it is a platform
 * screen or hidden, and its children. The shell's route table (shell/routes.tsx) is one of these;
 * the rules below know nothing else of it.
 */
export interface GuardedRoute<R> {
  path: string;
  /** Roles that may open it (SPEC.md §6); none = every tenant user. */
  roles?: readonly Role[];
  /** Platform-operator screens: only role `superadmin`, and no tenant screen for that role. */
  platform?: boolean;
  /** Not shown in the menu or the header search. */
  hidden?: boolean;
  children?: R[];
}

/** The platform operator's home: tenant management. */
export const PLATFORM_HOME = '/saadmin/sa/adm';
/** Every tenant user's home. */
export const TENANT_HOME = '/dashboard';

/** The platform operator (role `superadmin`) sees only platform screens (docs/WEB.md). */
export function isPlatformOperator(roles: readonly Role[]): boolean {
  return roles.includes('superadmin');
}

/**
 * SPEC.md §6 for one route on its own: `admin` sees every role-based route; other roles see a
 * route whose role list names one of theirs; a route with no list is open. Platform routes are
 * for `superadmin` only, and a platform operator sees no tenant route.
 */
export function routeAllows<R extends GuardedRoute<R>>(route: R, roles: readonly Role[]): boolean {
  if (isPlatformOperator(roles)) return route.platform === true;
  if (route.platform) return false;
  if (roles.includes('admin')) return true;
  if (!route.roles) return true;
  return roles.some((role) => route.roles?.includes(role));
}

/** A route is reachable when it and every route above it allow the roles. */
export function chainAllows<R extends GuardedRoute<R>>(chain: readonly R[], roles: readonly Role[]): boolean {
  return chain.length > 0 && chain.every((route) => routeAllows(route, roles));
}

/** The permitted part of the table, children filtered the same way (groups may end up empty). */
export function filterRoutes<R extends GuardedRoute<R>>(table: readonly R[], roles: readonly Role[]): R[] {
  const out: R[] = [];
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
export function menuRoutes<R extends GuardedRoute<R>>(table: readonly R[], roles: readonly Role[]): R[] {
  const out: R[] = [];
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
export function findChain<R extends GuardedRoute<R>>(table: readonly R[], path: string): R[] {
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
export function flattenRoutes<R extends GuardedRoute<R>>(table: readonly R[]): R[] {
  return table.flatMap((route) => [route, ...(route.children ? flattenRoutes(route.children) : [])]);
}

export function normalisePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}
