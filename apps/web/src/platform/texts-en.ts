// Every namespace of the English texts but the first screen's (in the entry, i18n.ts), as one
// chunk loaded after the first screen.
export default import.meta.glob<{ default: Record<string, unknown> }>(
  ['../locales/en/*.json', '!../locales/en/{common,route,navbar,settings,errors,login}.json'],
  { eager: true },
);
