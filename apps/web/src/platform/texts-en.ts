// Every namespace of the English texts, as one chunk loaded after the first screen (i18n.ts).
export default import.meta.glob<{ default: Record<string, unknown> }>('../locales/en/*.json', { eager: true });
