import { CloseOutlined } from '@ant-design/icons';
import { type MouseEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { findChain, flattenRoutes, normalisePath } from '../../platform/permission';
import { useRefreshView } from '../../platform/refreshView';
import { themeColours } from '../../platform/theme';
import { useSettingsStore } from '../../store/settings';
import { useTagsViewStore, type VisitedView } from '../../store/tagsView';
import { routes } from '../routes';
import { usePermittedRoutes } from './usePermittedRoutes';

interface MenuAt {
  view: VisitedView;
  left: number;
  top: number;
}

/** The tabs of visited views with the Refresh / Close / Close Others / Close All context menu. */
export function TagsView() {
  const { t } = useTranslation(['navbar', 'route']);
  const location = useLocation();
  const navigate = useNavigate();
  const refresh = useRefreshView();
  const { permitted, home } = usePermittedRoutes();
  const { visitedViews, addView, delView, delOthersViews, delAllViews } = useTagsViewStore();
  const theme = themeColours(useSettingsStore((s) => s.theme)).primary;
  const [menu, setMenu] = useState<MenuAt | null>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const path = normalisePath(location.pathname);
  const fullPath = `${location.pathname}${location.search}`;

  // Affixed tabs: the dashboard (or the platform operator's home), always first.
  const affixed = useMemo(
    () => flattenRoutes(permitted).filter((r) => r.page && (r.affix || r.path === home)),
    [permitted, home],
  );
  useEffect(() => {
    for (const r of affixed) addView({ path: r.path, fullPath: r.path, title: r.name, affix: true });
  }, [affixed, addView]);

  // One tab per visited path.
  useEffect(() => {
    const route = findChain(routes, path).at(-1);
    if (!route?.page) return;
    addView({ path, fullPath, title: route.name, affix: Boolean(route.affix) || route.path === home });
  }, [path, fullPath, home, addView]);

  // Keep the active tab in sight.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the active tab or the tab count changes
  useEffect(() => {
    const active = wrapper.current?.querySelector<HTMLElement>('.tags-view-item.active');
    active?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [path, visitedViews.length]);

  useEffect(() => {
    if (!menu) return;
    const close = () => setMenu(null);
    document.addEventListener('click', close);
    return () => document.removeEventListener('click', close);
  }, [menu]);

  const toLastView = (views: VisitedView[], closed: VisitedView) => {
    const latest = views.at(-1);
    if (latest) navigate(latest.fullPath);
    else if (closed.path === home) refresh(closed.fullPath);
    else navigate(home);
  };

  const closeSelected = (view: VisitedView) => {
    if (view.affix) return;
    delView(view.path);
    if (view.path === path) toLastView(useTagsViewStore.getState().visitedViews, view);
  };

  const closeOthers = (view: VisitedView) => {
    if (view.path !== path) navigate(view.fullPath);
    delOthersViews(view.path);
  };

  const closeAll = (view: VisitedView) => {
    delAllViews();
    const remaining = useTagsViewStore.getState().visitedViews;
    if (remaining.some((v) => v.path === path)) return;
    toLastView(remaining, view);
  };

  const openMenu = (event: MouseEvent, view: VisitedView) => {
    event.preventDefault();
    const box = wrapper.current?.getBoundingClientRect();
    const left = event.clientX - (box?.left ?? 0) + 15;
    const maxLeft = (box?.width ?? window.innerWidth) - 120;
    setMenu({ view, left: Math.min(left, maxLeft), top: event.clientY - (box?.top ?? 0) });
  };

  return (
    <div className="tags-view-container" ref={wrapper} data-testid="tags-view">
      <div className="tags-view-wrapper">
        {visitedViews.map((view) => {
          const active = view.path === path;
          return (
            <Link
              key={view.path}
              to={view.fullPath}
              className={`tags-view-item${active ? ' active' : ''}`}
              data-path={view.path}
              style={active ? { backgroundColor: theme, borderColor: theme } : undefined}
              data-testid="tag"
              onContextMenu={(e) => openMenu(e, view)}
              onMouseUp={(e) => {
                if (e.button === 1) closeSelected(view);
              }}
            >
              {t(`route:${view.title}`)}
              {!view.affix && (
                <CloseOutlined
                  className="tags-view-close"
                  data-testid="tag-close"
                  onClick={(e) => {
                    e.preventDefault();
                    e.stopPropagation();
                    closeSelected(view);
                  }}
                />
              )}
            </Link>
          );
        })}
      </div>
      {menu && (
        <ul className="contextmenu" style={{ left: menu.left, top: menu.top }} data-testid="tags-menu">
          <li>
            <button type="button" data-testid="tags-refresh" onClick={() => refresh(menu.view.fullPath)}>
              {t('refresh')}
            </button>
          </li>
          {!menu.view.affix && (
            <li>
              <button type="button" data-testid="tags-close" onClick={() => closeSelected(menu.view)}>
                {t('closeTab')}
              </button>
            </li>
          )}
          <li>
            <button type="button" data-testid="tags-close-others" onClick={() => closeOthers(menu.view)}>
              {t('closeOthers')}
            </button>
          </li>
          <li>
            <button type="button" data-testid="tags-close-all" onClick={() => closeAll(menu.view)}>
              {t('closeAll')}
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
