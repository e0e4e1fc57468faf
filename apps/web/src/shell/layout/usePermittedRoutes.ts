import { useMemo } from 'react';
import { filterRoutes, homePath, menuRoutes } from '../../platform/permission';
import { useUserStore } from '../../store/user';
import { type AppRoute, routes } from '../routes';

/** The signed-in user's view of the route table. */
export function usePermittedRoutes(): { permitted: AppRoute[]; menu: AppRoute[]; home: string } {
  const roles = useUserStore((s) => s.roles);
  return useMemo(
    () => ({ permitted: filterRoutes(routes, roles), menu: menuRoutes(routes, roles), home: homePath(roles) }),
    [roles],
  );
}
