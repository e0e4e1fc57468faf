import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useEffect } from 'react';
import { RouterProvider } from 'react-router';
import { setFeedback } from '../platform/feedback';
import { language } from '../platform/i18n';
import { useReducedMotion } from '../platform/motion';
import { themeFor } from '../platform/theme';
import { useAppStore } from '../store/app';
import { useSettingsStore } from '../store/settings';
import { router } from './router';

/** Hands antd's context-aware message and modal APIs to code outside React. */
function FeedbackBridge() {
  const { message, modal } = AntApp.useApp();
  useEffect(() => {
    setFeedback({ message, confirm: (props) => modal.confirm(props) });
  }, [message, modal]);
  return null;
}

export function App() {
  const size = useAppStore((s) => s.size);
  const colour = useSettingsStore((s) => s.theme);
  const reducedMotion = useReducedMotion();
  return (
    <ConfigProvider
      locale={language === 'en' ? enUS : zhCN}
      theme={themeFor(size, colour, !reducedMotion)}
      componentSize="middle"
    >
      <AntApp message={{ maxCount: 3 }}>
        <FeedbackBridge />
        <RouterProvider router={router} />
      </AntApp>
    </ConfigProvider>
  );
}
