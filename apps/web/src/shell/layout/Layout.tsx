import { QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { Loading } from '../../components/Loading';
import { language } from '../../platform/i18n';
import { queryClient } from '../../platform/query';
import { useAppStore } from '../../store/app';
import { useSettingsStore } from '../../store/settings';
import { titleKeyOf } from '../Shell';
import { deviceFor } from './device';
import { Navbar } from './Navbar';
import { Sidebar } from './Sidebar';
import { TagsView } from './TagsView';
import { useNoticeSocket } from './useNoticeSocket';
import { useScheduleNotices } from './useScheduleNotices';
import './layout.css';

// antd's date pickers take month and weekday names from dayjs's global locale. Set here, with
// the layout every date picker lives in, so the login page does not load dayjs.
dayjs.locale(language === 'en' ? 'en' : 'zh-cn');

/**
 * The page's one first-level heading: the route's title, for screen readers and the document
 * outline (the breadcrumb and the tab already show it on screen, so it is visually hidden).
 */
function PageHeading() {
  const { t } = useTranslation('route');
  const { pathname } = useLocation();
  const key = titleKeyOf(pathname);
  return (
    <h1 className="sr-only" data-testid="page-heading">
      {key ? t(key) : ''}
    </h1>
  );
}

/** Keeps the device in step with the window width; entering mobile mode closes the sidebar. */
function useResponsive() {
  const { pathname } = useLocation();
  const device = useAppStore((s) => s.device);
  const opened = useAppStore((s) => s.sidebarOpened);

  useEffect(() => {
    const apply = () => {
      const mobile = deviceFor(window.innerWidth) === 'mobile';
      const { device, setDevice, closeSidebar } = useAppStore.getState();
      if (mobile && device !== 'mobile') {
        setDevice('mobile');
        closeSidebar(true);
      } else if (!mobile && device !== 'desktop') {
        setDevice('desktop');
      }
    };
    apply();
    window.addEventListener('resize', apply);
    return () => window.removeEventListener('resize', apply);
  }, []);

  // On a phone the menu closes once a page is chosen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(() => {
    if (device === 'mobile' && opened) useAppStore.getState().closeSidebar(false);
  }, [pathname]);
}

/** The main layout: sidebar, navbar, tags view and the page. */
export default function Layout() {
  useResponsive();
  useNoticeSocket();
  useScheduleNotices();
  const opened = useAppStore((s) => s.sidebarOpened);
  const withoutAnimation = useAppStore((s) => s.withoutAnimation);
  const device = useAppStore((s) => s.device);
  const closeSidebar = useAppStore((s) => s.closeSidebar);
  const { tagsView, fixedHeader } = useSettingsStore();
  const classes = [
    'app-wrapper',
    opened ? 'openSidebar' : 'hideSidebar',
    withoutAnimation ? 'withoutAnimation' : '',
    device === 'mobile' ? 'mobile' : '',
    tagsView ? 'hasTagsView' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <QueryClientProvider client={queryClient}>
      <PageHeading />
      <div className={classes} data-testid="layout" data-device={device} data-sidebar={opened ? 'open' : 'closed'}>
        {device === 'mobile' && opened && (
          <button
            type="button"
            className="drawer-bg"
            aria-label="close"
            data-testid="drawer-bg"
            onClick={() => closeSidebar(false)}
          />
        )}
        <Sidebar />
        <div className="main-container">
          <div className={fixedHeader ? 'fixed-header' : ''}>
            <Navbar />
            {tagsView && <TagsView />}
          </div>
          <main className="app-main" data-testid="app-main">
            <Suspense fallback={<Loading />}>
              <Outlet />
            </Suspense>
          </main>
        </div>
      </div>
    </QueryClientProvider>
  );
}
