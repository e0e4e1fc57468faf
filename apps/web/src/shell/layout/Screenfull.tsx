import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { App, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Fullscreen toggle; warns that the browser cannot show full screen where the Fullscreen API is missing. */
export function Screenfull() {
  const { t } = useTranslation('navbar');
  const { message } = App.useApp();
  const [full, setFull] = useState(Boolean(document.fullscreenElement));

  useEffect(() => {
    const onChange = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggle = () => {
    if (!document.fullscreenEnabled || !document.documentElement.requestFullscreen) {
      void message.warning(t('fullscreenUnsupported'));
      return;
    }
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen().catch(() => message.warning(t('fullscreenUnsupported')));
  };

  const label = t(full ? 'exitFullscreen' : 'fullscreen');
  return (
    <Tooltip title={label} placement="bottom">
      <button type="button" className="nav-item" aria-label={label} data-testid="screenfull" onClick={toggle}>
        {full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
      </button>
    </Tooltip>
  );
}
