import { SettingOutlined } from '@ant-design/icons';
import { Drawer, Flex, Switch, Tooltip } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettingsStore } from '../../store/settings';
import { ThemePicker } from './ThemePicker';

/** The page-style panel: theme colour, tags view, fixed header, sidebar logo. */
export function SettingsDrawer() {
  const { t } = useTranslation(['settings', 'navbar']);
  const [open, setOpen] = useState(false);
  const settings = useSettingsStore();
  const row = (label: string, control: ReactNode) => (
    <Flex justify="space-between" align="center" style={{ padding: '12px 0' }}>
      <span>{label}</span>
      {control}
    </Flex>
  );
  return (
    <>
      <Tooltip title={t('navbar:settings')} placement="bottom">
        <button
          type="button"
          className="nav-item"
          aria-label={t('navbar:settings')}
          data-testid="settings-open"
          onClick={() => setOpen(true)}
        >
          <SettingOutlined />
        </button>
      </Tooltip>
      <Drawer title={t('title')} open={open} onClose={() => setOpen(false)} size={280}>
        {row(t('theme'), <ThemePicker />)}
        {row(
          t('tagsView'),
          <Switch
            checked={settings.tagsView}
            onChange={(v) => settings.change('tagsView', v)}
            data-testid="set-tags"
          />,
        )}
        {row(
          t('fixedHeader'),
          <Switch
            checked={settings.fixedHeader}
            onChange={(v) => settings.change('fixedHeader', v)}
            data-testid="set-fixed-header"
          />,
        )}
        {row(
          t('sidebarLogo'),
          <Switch
            checked={settings.sidebarLogo}
            onChange={(v) => settings.change('sidebarLogo', v)}
            data-testid="set-logo"
          />,
        )}
      </Drawer>
    </>
  );
}
