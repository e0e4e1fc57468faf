// Every namespace of the Chinese texts but the first screen's (in the entry, i18n.ts), as one
// chunk loaded after the first screen.
export default import.meta.glob<{ default: Record<string, unknown> }>(
  ['../locales/zh-CN/*.json', '!../locales/zh-CN/{common,route,navbar,settings,errors,login}.json'],
  { eager: true },
);
