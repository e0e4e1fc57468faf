import type { TemplateDocument } from '@esl/labels';
import { createEditorState, type EditorState } from './state';

export type Listener = () => void;

/**
 * Holds one EditorState for the page and tells subscribers when it is replaced. Every change is a
 * pure function of the state (from state.ts and commands.ts) passed to `update`, so React reads it
 * with useSyncExternalStore and the drawing code reads it directly, neither owning it.
 */
export interface EditorStore {
  getState(): EditorState;
  update(next: (state: EditorState) => EditorState): void;
  subscribe(listener: Listener): () => void;
}

export function createEditorStore(doc: TemplateDocument): EditorStore {
  let state = createEditorState(doc);
  const listeners = new Set<Listener>();
  return {
    getState: () => state,
    update(next) {
      const value = next(state);
      if (value === state) return;
      state = value;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
