import { useSyncExternalStore } from 'react';
import type { EditorState } from '../../../editor/state';
import type { EditorStore } from '../../../editor/store';

/** The editor state, re-rendering when the store replaces it. */
export function useEditorState(store: EditorStore): EditorState {
  return useSyncExternalStore(store.subscribe, store.getState);
}

/** True when a key press belongs to a field being typed in, not to the canvas. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

/** True while a dialog (the save dialog, a confirmation) is on screen; closed ones stay in the DOM hidden. */
export function dialogShown(): boolean {
  return [...document.querySelectorAll<HTMLElement>('.ant-modal-wrap')].some((el) => el.style.display !== 'none');
}
