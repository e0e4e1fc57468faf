import { Drawer, Flex, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettingsStore } from '../../store/settings';
import { ThemePicker } from './ThemePicker';

/** The drawer's switches: the setting each turns on and off, and its test id. */
const SWITCHES = [
  ['tagsView', 'set-tags'],
  ['fixedHeader', 'set-fixed-header'],
  ['sidebarLogo', 'set-logo'],
] as const;

/** The page-style drawer: theme colour, tags view, fixed header, sidebar logo (loaded on first open). */
export default function SettingsPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('settings');
  const settings = useSettingsStore();
  const row = (label: string, control: ReactNode, key?: string) => (
    <Flex key={key} justify="space-between" align="center" style={{ padding: '12px 0' }}>
      <span>{label}</span>
      {control}
    </Flex>
  );
  return (
    <Drawer title={t('title')} open={open} onClose={onClose} size={280}>
      {row(t('theme'), <ThemePicker />)}
      {SWITCHES.map(([key, testId]) =>
        row(
          t(key),
          <Switch checked={settings[key]} onChange={(v) => settings.change(key, v)} data-testid={testId} />,
          key,
        ),
      )}
    </Drawer>
  );
}
