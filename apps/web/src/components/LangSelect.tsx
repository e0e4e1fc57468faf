import { TranslationOutlined } from '@ant-design/icons';
import type { Language } from '@esl/contract';
import { Dropdown, type MenuProps } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { language } from '../platform/i18n';
import { setLanguage } from '../platform/language';

const NAMES: Record<Language, string> = { 'zh-CN': '中文', en: 'English' };

/** The language switcher: stores the choice and reloads the page (SPEC.md §1). */
export function LangSelect({ style }: { style?: CSSProperties }) {
  const { t } = useTranslation('navbar');
  const items: MenuProps['items'] = (Object.keys(NAMES) as Language[]).map((lng) => ({
    key: lng,
    label: <span data-testid={`lang-${lng}`}>{NAMES[lng]}</span>,
    disabled: lng === language,
  }));
  return (
    <Dropdown
      trigger={['click']}
      menu={{ items, selectable: true, selectedKeys: [language], onClick: ({ key }) => setLanguage(key as Language) }}
    >
      <button
        type="button"
        className="nav-item"
        aria-label={t('language')}
        title={t('language')}
        data-testid="lang-select"
        style={style}
      >
        <TranslationOutlined />
      </button>
    </Dropdown>
  );
}
