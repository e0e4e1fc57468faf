import { type ComponentType, lazy, Suspense } from 'react';
import { createBrowserRouter, type LoaderFunctionArgs, Navigate, type RouteObject } from 'react-router';
import { Loading } from '../components/Loading';
import { RouteError } from '../components/RouteError';
import { textsReady } from '../platform/i18n';
import { findChain, normalisePath } from '../platform/permission';
import { REDIRECT_PREFIX } from '../platform/refreshView';
import { getToken } from '../utils/auth';
import { guard } from './guard';
import type { AppRoute, PageModule } from './routes';
import { routes } from './routes';
import { Shell } from './Shell';

/*
 * Page code loads when the page renders, not when the router matches it: a router `lazy` runs
 * beside the guard, so a deep link opened without a session downloaded the page (and the layout)
 * before the guard sent it to /login. Rendering happens only after the guard has let the
 * navigation through; the guard's go-ahead then starts the download at once (`preload`).
 */
const components = new Map<() => Promise<PageModule>, ComponentType>();

function componentOf(load: () => Promise<PageModule>): ComponentType {
  let component = components.get(load);
  if (!component) {
    component = lazy(load);
    components.set(load, component);
  }
  return component;
}

function page(load: () => Promise<PageModule>) {
  const Page = componentOf(load);
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}

// The layout and every page in it render once all of the language's texts are in (platform/i18n.ts).
const loadLayout = () => Promise.all([import('./layout/Layout'), textsReady()]).then(([layout]) => layout);

/** Starts downloading what a navigation the guard allowed will show. */
function preload(request: Request): void {
  const path = normalisePath(new URL(request.url).pathname);
  if (!getToken()) return;
  void loadLayout();
  void findChain(routes, path).at(-1)?.page?.();
}

async function guardThenPreload(args: LoaderFunctionArgs): Promise<null> {
  await guard(args);
  preload(args.request);
  return null;
}

function toRouteObjects(table: readonly AppRoute[]): RouteObject[] {
  return table.flatMap((route): RouteObject[] => {
    const own: RouteObject[] = [];
    if (route.page) own.push({ path: route.path, element: page(route.page) });
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
      loader: guardThenPreload,
      // The guard runs before every navigation, like a router-wide beforeEach.
      shouldRevalidate: () => true,
      hydrateFallbackElement: <Loading />,
      errorElement: <RouteError />,
      children: [
        { path: '/login', element: page(() => import('../pages/login/index')) },
        { path: '/auth-redirect', element: page(() => import('../pages/authRedirect/index')) },
        { path: '/404', element: page(() => import('../pages/error/404')) },
        { path: '/401', element: page(() => import('../pages/error/401')) },
        {
          element: page(loadLayout),
          errorElement: <RouteError />,
          children: [
            { path: '/', element: null },
            { path: `${REDIRECT_PREFIX}/*`, element: page(() => import('../pages/redirect/index')) },
            ...toRouteObjects(routes),
          ],
        },
        { path: '*', element: <Navigate to="/404" replace /> },
      ],
    },
  ];
}

export const router = createBrowserRouter(buildRouteObjects());
