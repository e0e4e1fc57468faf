import { THEME_DEFAULT_COLOUR } from '@esl/contract';
import { create } from 'zustand';

const THEME_KEY = 'theme-colour';

/** The eight colours offered by the theme picker; the first is the default. */
export const THEME_PRESETS = [
  '#1890ff',
  '#409eff',
  '#304156',
  '#212121',
  '#11a983',
  '#13c2c2',
  '#6959cd',
  '#f5222d',
] as const;

function readTheme(): string {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    if (stored && /^#[0-9a-f]{6}$/i.test(stored)) return stored;
  } catch {
    // No storage: the default colour.
  }
  return THEME_DEFAULT_COLOUR;
}

interface SettingsState {
  theme: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  /** The error log collects only in production builds (SPEC.md §2). */
  errorLog: boolean;
  setTheme: (colour: string) => void;
  change: (key: 'tagsView' | 'fixedHeader' | 'sidebarLogo', value: boolean) => void;
}

/** The settings of SPEC.md §2: tags view on, fixed header off, sidebar logo off, error log in production. */
export const useSettingsStore = create<SettingsState>()((set) => ({
  theme: readTheme(),
  tagsView: true,
  fixedHeader: false,
  sidebarLogo: false,
  errorLog: import.meta.env.PROD,
  setTheme(colour) {
    localStorage.setItem(THEME_KEY, colour);
    set({ theme: colour });
  },
  change(key, value) {
    set({ [key]: value });
  },
}));
