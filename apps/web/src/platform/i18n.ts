import type { Language } from '@esl/contract';
import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getLanguage } from './language';

// Every file src/locales/<lng>/<ns>.json is namespace <ns> of language <lng>. The first screen's
// namespaces (sign-in, the shell, errors) are in the entry, both languages; the rest of the
// current language is one chunk (texts-<lng>.ts) that the layout loads beside its own code and
// renders only once it is in (textsReady), so a page never lacks its texts while /login does not
// carry them (issue 26 item 3: the sign-in page's JavaScript ≤ 300 KB gzipped).
// texts-<lng>.ts leave out the same six namespaces: a change here is a change there.
const files = import.meta.glob<{ default: Record<string, unknown> }>(
  '../locales/*/{common,route,navbar,settings,errors,login}.json',
  { eager: true },
);
const allTexts: Record<Language, () => Promise<{ default: Record<string, { default: Record<string, unknown> }> }>> = {
  en: () => import('./texts-en'),
  'zh-CN': () => import('./texts-zh-CN'),
};

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

let texts: Promise<void> | undefined;

/**
 * Loads every namespace of the current language, once; the layout waits for it (shell/router.tsx),
 * so /login and a deep link without a session never download it.
 */
export function textsReady(): Promise<void> {
  texts ??= allTexts[language]().then((mod) => {
    for (const [lng, namespaces] of Object.entries(buildResources(mod.default)))
      for (const [ns, bundle] of Object.entries(namespaces)) i18n.addResourceBundle(lng, ns, bundle, true, true);
  });
  return texts;
}
