import { DEFAULT_LANGUAGE, LANGUAGE_STORAGE_KEY, LANGUAGES, type Language } from '@esl/contract';

/** The interface language, kept in localStorage `change-language` (SPEC.md §1); zh-CN by default. */
export function getLanguage(): Language {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode, sandboxed frames): fall back to the default.
  }
  return (LANGUAGES as readonly string[]).includes(stored ?? '') ? (stored as Language) : DEFAULT_LANGUAGE;
}

/** Stores the choice and reloads the page, as SPEC.md §1 asks. */
export function setLanguage(lng: Language): void {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, lng);
  window.location.reload();
}
