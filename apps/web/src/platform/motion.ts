import { useSyncExternalStore } from 'react';

/**
 * The user's "reduce motion" setting (operating system or browser). When it is on, the console
 * opens and closes its dialogs, menus and lists without animating them (antd's `motion` token)
 * and the layout's own transitions stop (layout.css). WCAG 2.1, 2.3.3 Animation from Interactions.
 */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

function media(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(REDUCED_MOTION_QUERY)
    : null;
}

export function prefersReducedMotion(): boolean {
  return media()?.matches ?? false;
}

function subscribe(onChange: () => void): () => void {
  const list = media();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

/** Follows the setting while the console is open (it can change without a reload). */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
}
