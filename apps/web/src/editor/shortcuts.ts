/** A key press as the editor reads it (a subset of KeyboardEvent). */
export interface KeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
}

export type ShortcutAction =
  | { readonly type: 'undo' }
  | { readonly type: 'redo' }
  | { readonly type: 'nudge'; readonly dx: number; readonly dy: number }
  | { readonly type: 'delete' }
  | { readonly type: 'selectAll' }
  | { readonly type: 'duplicate' }
  | { readonly type: 'deselect' }
  | { readonly type: 'save' }
  | { readonly type: 'zoom'; readonly direction: 1 | -1 };

/** Pixels an arrow key moves the selection; with Shift, the large step. */
export const NUDGE = 1;
export const NUDGE_LARGE = 10;

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/**
 * The editor's keyboard map: Ctrl+Z undo, Ctrl+Y or Ctrl+Shift+Z redo (⌘ on a Mac), arrows nudge
 * by 1 px (Shift: 10 px), Delete/Backspace delete, Ctrl+A select all, Ctrl+D duplicate, Escape
 * deselects, Ctrl+S saves, Ctrl+= / Ctrl+- zoom. Answers null for any other key.
 */
export function shortcutFor(e: KeyPress): ShortcutAction | null {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (mod && !e.altKey) {
    if (key === 'z') return e.shiftKey ? { type: 'redo' } : { type: 'undo' };
    if (key === 'y' && !e.shiftKey) return { type: 'redo' };
    if (key === 'a' && !e.shiftKey) return { type: 'selectAll' };
    if (key === 'd' && !e.shiftKey) return { type: 'duplicate' };
    if (key === 's' && !e.shiftKey) return { type: 'save' };
    if (key === '=' || key === '+') return { type: 'zoom', direction: 1 };
    if (key === '-') return { type: 'zoom', direction: -1 };
    return null;
  }
  if (mod || e.altKey) return null;
  const arrow = ARROWS[key];
  if (arrow) {
    const step = e.shiftKey ? NUDGE_LARGE : NUDGE;
    return { type: 'nudge', dx: arrow[0] * step, dy: arrow[1] * step };
  }
  if (key === 'Delete' || key === 'Backspace') return { type: 'delete' };
  if (key === 'Escape') return { type: 'deselect' };
  return null;
}
