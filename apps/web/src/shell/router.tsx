import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { Loading } from '../components/Loading';
import { RouteError } from '../components/RouteError';
import { REDIRECT_PREFIX } from '../platform/refreshView';
import { guard } from './guard';
import type { AppRoute, PageModule } from './routes';
import { routes } from './routes';
import { Shell } from './Shell';

const lazyPage = (load: () => Promise<PageModule>) => async () => ({ Component: (await load()).default });

function toRouteObjects(table: readonly AppRoute[]): RouteObject[] {
  return table.flatMap((route): RouteObject[] => {
    const own: RouteObject[] = [];
    if (route.page) own.push({ path: route.path, lazy: lazyPage(route.page) });
    else if (route.redirect) own.push({ path: route.path, element: <Navigate to={route.redirect} replace /> });
    return [...own, ...(route.children ? toRouteObjects(route.children) : [])];
  });
}

/** The router: public pages, the layout with every table route, and unknown paths → /404. */
export function buildRouteObjects(): RouteObject[] {
  return [
    {
      id: 'root',
      element: <Shell />,
      loader: guard,
      // The guard runs before every navigation, like a router-wide beforeEach.
      shouldRevalidate: () => true,
      hydrateFallbackElement: <Loading />,
      errorElement: <RouteError />,
      children: [
        { path: '/login', lazy: lazyPage(() => import('../pages/login/index')) },
        { path: '/auth-redirect', lazy: lazyPage(() => import('../pages/authRedirect/index')) },
        { path: '/404', lazy: lazyPage(() => import('../pages/error/404')) },
        { path: '/401', lazy: lazyPage(() => import('../pages/error/401')) },
        {
          lazy: lazyPage(() => import('./layout/Layout')),
          errorElement: <RouteError />,
          children: [
            { path: '/', element: null },
            { path: `${REDIRECT_PREFIX}/*`, lazy: lazyPage(() => import('../pages/redirect/index')) },
            ...toRouteObjects(routes),
          ],
        },
        { path: '*', element: <Navigate to="/404" replace /> },
      ],
    },
  ];
}

export const router = createBrowserRouter(buildRouteObjects());
