import { ColorPicker } from 'antd';
import { useTranslation } from 'react-i18next';
import { THEME_PRESETS, useSettingsStore } from '../../store/settings';

/** The theme colour: eight presets or any colour, kept in localStorage. */
export function ThemePicker() {
  const { t } = useTranslation('settings');
  const theme = useSettingsStore((s) => s.theme);
  const setTheme = useSettingsStore((s) => s.setTheme);
  return (
    <ColorPicker
      value={theme}
      disabledAlpha
      presets={[{ label: t('theme'), colors: [...THEME_PRESETS] }]}
      onChangeComplete={(colour) => setTheme(colour.toHexString())}
      data-testid="theme-picker"
    />
  );
}
