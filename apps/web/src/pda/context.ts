import { createContext, useContext } from 'react';
import { ApiError, FORBIDDEN, SESSION_EXPIRED } from './api';
import type { Key, Lang, T } from './i18n';

export interface Pda {
  lang: Lang;
  t: T;
  /** What the signed-in user may do (the server decides; the page only hides what it refuses). */
  can: (permission: 'tag.read' | 'tag.bind' | 'tag.operate') => boolean;
  /** A failed call's words for the clerk; a lost session sends them back to the sign-in form. */
  explain: (error: unknown) => string;
}

export const PdaContext = createContext<Pda | null>(null);

export function usePda(): Pda {
  const pda = useContext(PdaContext);
  if (!pda) throw new Error('usePda outside the handheld app');
  return pda;
}

/** The message for an error, given the translator and what to do when the session is gone. */
export function explainWith(t: T, onExpired: () => void) {
  return (error: unknown): string => {
    if (!(error instanceof ApiError)) return t('network');
    if (error.code === SESSION_EXPIRED) {
      onExpired();
      return t('expired');
    }
    if (error.code === FORBIDDEN) return t('forbiddenAction');
    if (error.code === -1 || !error.message) return t('network');
    return error.message;
  };
}

export type { Key };
