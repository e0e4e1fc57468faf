import { describe, expect, it } from 'vitest';
import { deleteElements, moveElements } from './commands';
import { docWith, rect } from './fixtures';
import {
  canRedo,
  canUndo,
  change,
  createEditorState,
  endGesture,
  HISTORY_LIMIT,
  redo,
  reset,
  select,
  selectedElements,
  undo,
} from './state';

const start = () => createEditorState(docWith(rect('a', 0, 0, 10, 10), rect('b', 20, 20, 10, 10)));
const xOf = (s: ReturnType<typeof start>, id: string) => s.doc.elements.find((e) => e.id === id)?.x;

describe('change', () => {
  it('bumps the version and records an undo step', () => {
    const s0 = start();
    const s1 = change(s0, (d) => moveElements(d, ['a'], 5, 0));
    expect(s1.version).toBe(1);
    expect(canUndo(s1)).toBe(true);
    expect(xOf(s1, 'a')).toBe(5);
  });

  it('answers the same state when the document does not change', () => {
    const s0 = start();
    expect(change(s0, (d) => d)).toBe(s0);
    expect(change(s0, (d) => moveElements(d, ['a'], 0, 0))).toBe(s0);
  });

  it('merges the changes of one gesture into one undo step', () => {
    let s = start();
    for (let i = 0; i < 5; i++) s = change(s, (d) => moveElements(d, ['a'], 1, 0), { gesture: 'drag-1' });
    s = endGesture(s);
    s = change(s, (d) => moveElements(d, ['a'], 1, 0), { gesture: 'drag-1' });
    expect(xOf(s, 'a')).toBe(6);
    expect(s.version).toBe(6);
    expect(s.past).toHaveLength(2);
    s = undo(s);
    expect(xOf(s, 'a')).toBe(5);
    s = undo(s);
    expect(xOf(s, 'a')).toBe(0);
    expect(canUndo(s)).toBe(false);
  });

  it('drops deleted elements from the selection', () => {
    const s = change(select(start(), ['a', 'b']), (d) => deleteElements(d, ['a']));
    expect(s.selection).toEqual(['b']);
  });

  it('forgets the oldest steps past the history limit', () => {
    let s = start();
    for (let i = 0; i < HISTORY_LIMIT + 10; i++) s = change(s, (d) => moveElements(d, ['a'], 1, 0));
    expect(s.past).toHaveLength(HISTORY_LIMIT);
  });
});

describe('undo and redo', () => {
  it('restores the document and the selection, and redoes', () => {
    let s = select(start(), ['a']);
    s = change(s, (d) => deleteElements(d, ['a']), { selection: [] });
    expect(s.selection).toEqual([]);
    s = undo(s);
    expect(s.doc.elements.map((e) => e.id)).toEqual(['a', 'b']);
    expect(s.selection).toEqual(['a']);
    expect(canRedo(s)).toBe(true);
    s = redo(s);
    expect(s.doc.elements.map((e) => e.id)).toEqual(['b']);
    expect(canRedo(s)).toBe(false);
  });

  it('bumps the version on undo and redo too', () => {
    const s1 = change(start(), (d) => moveElements(d, ['a'], 1, 0));
    const s2 = undo(s1);
    const s3 = redo(s2);
    expect([s1.version, s2.version, s3.version]).toEqual([1, 2, 3]);
  });

  it('restores the very document object undone to, so "unchanged since save" can compare identity', () => {
    const s0 = start();
    const s2 = undo(change(s0, (d) => moveElements(d, ['a'], 1, 0)));
    expect(s2.doc).toBe(s0.doc);
  });

  it('clears redo after a new change', () => {
    let s = change(start(), (d) => moveElements(d, ['a'], 1, 0));
    s = undo(s);
    s = change(s, (d) => moveElements(d, ['b'], 1, 0));
    expect(canRedo(s)).toBe(false);
  });

  it('does nothing with nothing to undo or redo', () => {
    const s = start();
    expect(undo(s)).toBe(s);
    expect(redo(s)).toBe(s);
  });
});

describe('selection', () => {
  it('ignores unknown and repeated ids and is not an undo step', () => {
    const s = select(start(), ['b', 'zzz', 'b']);
    expect(s.selection).toEqual(['b']);
    expect(s.version).toBe(0);
    expect(canUndo(s)).toBe(false);
    expect(selectedElements(s).map((e) => e.id)).toEqual(['b']);
  });

  it('ends the open gesture', () => {
    const s = change(start(), (d) => moveElements(d, ['a'], 1, 0), { gesture: 'g' });
    expect(select(s, []).gesture).toBeNull();
  });

  it('starts over on reset, with a newer version', () => {
    const s1 = change(start(), (d) => moveElements(d, ['a'], 1, 0));
    const s2 = reset(s1, docWith());
    expect(s2.doc.elements).toEqual([]);
    expect(canUndo(s2)).toBe(false);
    expect(s2.version).toBeGreaterThan(s1.version);
  });
});
