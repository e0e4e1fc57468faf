import { Drawer, Flex, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettingsStore } from '../../store/settings';
import { ThemePicker } from './ThemePicker';

/** The page-style drawer: theme colour, tags view, fixed header, sidebar logo (loaded on first open). */
export default function SettingsPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('settings');
  const settings = useSettingsStore();
  const row = (label: string, control: ReactNode) => (
    <Flex justify="space-between" align="center" style={{ padding: '12px 0' }}>
      <span>{label}</span>
      {control}
    </Flex>
  );
  return (
    <Drawer title={t('title')} open={open} onClose={onClose} size={280}>
      {row(t('theme'), <ThemePicker />)}
      {row(
        t('tagsView'),
        <Switch checked={settings.tagsView} onChange={(v) => settings.change('tagsView', v)} data-testid="set-tags" />,
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
  );
}
