import { SettingOutlined } from '@ant-design/icons';
import { Tooltip } from 'antd';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OnceOpened } from '../../components/OnceOpened';

// The drawer and its colour picker load when it first opens, not with the layout every screen needs.
const SettingsPanel = lazy(() => import('./SettingsPanel'));

/** The page-style button and its drawer: theme colour, tags view, fixed header, sidebar logo. */
export function SettingsDrawer() {
  const { t } = useTranslation('navbar');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={t('settings')} placement="bottom">
        <button
          type="button"
          className="nav-item"
          aria-label={t('settings')}
          data-testid="settings-open"
          onClick={() => setOpen(true)}
        >
          <SettingOutlined />
        </button>
      </Tooltip>
      <OnceOpened open={open}>
        <SettingsPanel open={open} onClose={() => setOpen(false)} />
      </OnceOpened>
    </>
  );
}
