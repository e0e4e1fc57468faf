import { LIMITS, pageCount, swapPage, type TemplateDocument } from '@esl/labels';

/** What undo and redo restore: a document and what was selected in it. */
export interface Snapshot {
  readonly doc: TemplateDocument;
  readonly selection: readonly string[];
  /**
   * The page being edited (docs/PAGES.md; 1 when left out): `doc` holds it in `elements`, page 1
   * in its place (swapPage), so every element command works on the page shown.
   */
  readonly page?: number;
}

/**
 * The editor's whole state, a plain read-only value. `version` goes up by one whenever the
 * document changes (edits, undo, redo), so drawing and saving can tell whether they are stale.
 */
export interface EditorState extends Snapshot {
  readonly version: number;
  readonly past: readonly Snapshot[];
  readonly future: readonly Snapshot[];
  /** The gesture (one drag, one typing burst) whose changes merge into one undo step, or null. */
  readonly gesture: string | null;
}

/** Undo steps kept; older ones are forgotten. */
export const HISTORY_LIMIT = 200;

export function createEditorState(doc: TemplateDocument): EditorState {
  return { doc, selection: [], version: 0, past: [], future: [], gesture: null };
}

function keepExisting(doc: TemplateDocument, ids: readonly string[]): readonly string[] {
  const present = new Set(doc.elements.map((e) => e.id));
  const kept = ids.filter((id, i) => present.has(id) && ids.indexOf(id) === i);
  return kept.length === ids.length ? ids : kept;
}

export interface ChangeOptions {
  /** The selection after the change (default: the current one, less removed elements). */
  readonly selection?: readonly string[];
  /**
   * Changes made under the same gesture key one after another form a single undo step: the state
   * before the gesture's first change is what undo goes back to.
   */
  readonly gesture?: string;
}

/**
 * The one way the document changes. Answers the state unchanged when `update` answers the same
 * document; otherwise records an undo step (unless the change continues the open gesture), clears
 * redo, and bumps the version.
 */
export function change(
  state: EditorState,
  update: (doc: TemplateDocument) => TemplateDocument,
  options: ChangeOptions = {},
): EditorState {
  const doc = update(state.doc);
  const selection = keepExisting(doc, options.selection ?? state.selection);
  if (doc === state.doc) {
    return selection === state.selection && options.selection === undefined ? state : { ...state, selection };
  }
  const gesture = options.gesture ?? null;
  const continues = gesture !== null && gesture === state.gesture;
  const past = continues ? state.past : [...state.past, snapshotOf(state)].slice(-HISTORY_LIMIT);
  return { doc, selection, page: state.page, version: state.version + 1, past, future: [], gesture };
}

const snapshotOf = (state: EditorState): Snapshot => ({ doc: state.doc, selection: state.selection, page: state.page });

/** The document as stored: the page being edited back in its place. */
export function documentOf(state: Pick<EditorState, 'doc' | 'page'>): TemplateDocument {
  return swapPage(state.doc, state.page ?? 1);
}

/**
 * The same document, page moves aside: every field the same value and every page the same list
 * of elements (swapPage moves the lists, it does not copy them), so choosing a page is no change.
 */
export function sameDocument(a: TemplateDocument, b: TemplateDocument): boolean {
  if (a === b) return true;
  const { pages: pa = [], ...ra } = a;
  const { pages: pb = [], ...rb } = b;
  const ka = Object.keys(ra) as (keyof typeof ra)[];
  if (ka.length !== Object.keys(rb).length || ka.some((k) => ra[k] !== rb[k])) return false;
  return pa.length === pb.length && pa.every((p, i) => p.elements === pb[i]?.elements);
}

/** Moves to another page of the label (an undo step, so undo goes back to the page it was on). */
export function showPage(state: EditorState, page: number): EditorState {
  const whole = documentOf(state);
  if (page < 1 || page > pageCount(whole) || page === (state.page ?? 1)) return state;
  return withPage(state, whole, page);
}

/** Adds an empty page after the last and shows it; at the limit, nothing. */
export function addPage(state: EditorState): EditorState {
  const whole = documentOf(state);
  const n = pageCount(whole);
  if (n >= LIMITS.pages) return state;
  return withPage(state, { ...whole, pages: [...(whole.pages ?? []), { elements: [] }] }, n + 1);
}

/** Deletes the page shown (the last one left cannot be) and shows the one before it. */
export function deletePage(state: EditorState): EditorState {
  const whole = documentOf(state);
  const n = pageCount(whole);
  const page = state.page ?? 1;
  if (n < 2) return state;
  const lists = [whole.elements, ...(whole.pages ?? []).map((p) => p.elements)].filter((_, i) => i !== page - 1);
  const { pages: _pages, ...rest } = whole;
  const [first = [], ...others] = lists;
  const next: TemplateDocument = {
    ...rest,
    elements: first,
    ...(others.length ? { pages: others.map((elements) => ({ elements })) } : {}),
  };
  return withPage(state, next, Math.max(1, page - 1));
}

function withPage(state: EditorState, whole: TemplateDocument, page: number): EditorState {
  return {
    doc: swapPage(whole, page),
    selection: [],
    page,
    version: state.version + 1,
    past: [...state.past, snapshotOf(state)].slice(-HISTORY_LIMIT),
    future: [],
    gesture: null,
  };
}

/** Closes the open gesture, so the next change starts a new undo step. */
export function endGesture(state: EditorState): EditorState {
  return state.gesture === null ? state : { ...state, gesture: null };
}

/** Selects elements (ids not in the document are ignored); not an undo step. */
export function select(state: EditorState, ids: readonly string[]): EditorState {
  const selection = keepExisting(state.doc, ids);
  const same = selection.length === state.selection.length && selection.every((id, i) => id === state.selection[i]);
  return same && state.gesture === null
    ? state
    : { ...state, selection: same ? state.selection : selection, gesture: null };
}

export const canUndo = (state: EditorState): boolean => state.past.length > 0;
export const canRedo = (state: EditorState): boolean => state.future.length > 0;

export function undo(state: EditorState): EditorState {
  const previous = state.past[state.past.length - 1];
  if (!previous) return state;
  return {
    ...previous,
    version: state.version + 1,
    past: state.past.slice(0, -1),
    future: [snapshotOf(state), ...state.future],
    gesture: null,
  };
}

export function redo(state: EditorState): EditorState {
  const next = state.future[0];
  if (!next) return state;
  return {
    ...next,
    version: state.version + 1,
    past: [...state.past, snapshotOf(state)].slice(-HISTORY_LIMIT),
    future: state.future.slice(1),
    gesture: null,
  };
}

/** Starts over with another document (after loading), with no history. */
export function reset(state: EditorState, doc: TemplateDocument): EditorState {
  return { ...createEditorState(doc), version: state.version + 1 };
}

/** The selected elements, in drawing order. */
export function selectedElements(state: Pick<EditorState, 'doc' | 'selection'>) {
  const wanted = new Set(state.selection);
  return state.doc.elements.filter((e) => wanted.has(e.id));
}
