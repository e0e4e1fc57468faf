// Every namespace of the Chinese texts, as one chunk loaded after the first screen (i18n.ts).
export default import.meta.glob<{ default: Record<string, unknown> }>('../locales/zh-CN/*.json', { eager: true });
