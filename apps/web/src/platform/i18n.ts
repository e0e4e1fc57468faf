import type { Language } from '@esl/contract';
import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getLanguage } from './language';

// Every file src/locales/<lng>/<ns>.json is namespace <ns> of language <lng>; loaded eagerly so
// a page never waits for its texts.
const files = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', { eager: true });

export function buildResources(modules: Record<string, { default: Record<string, unknown> }>): Resource {
  const resources: Resource = {};
  for (const [file, mod] of Object.entries(modules)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
    if (!match) continue;
    const [, lng, ns] = match;
    resources[lng] ??= {};
    resources[lng][ns] = mod.default;
  }
  return resources;
}

export const language: Language = getLanguage();

void i18n.use(initReactI18next).init({
  resources: buildResources(files),
  lng: language,
  fallbackLng: 'zh-CN',
  defaultNS: 'common',
  ns: ['common', 'route', 'navbar', 'settings', 'errors', 'login'],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

export { i18n };
