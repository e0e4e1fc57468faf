import { describe, expect, it } from 'vitest';
import { type KeyPress, shortcutFor } from './shortcuts';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('editor shortcuts', () => {
  it('undoes with Ctrl+Z and redoes with Ctrl+Y or Ctrl+Shift+Z', () => {
    expect(shortcutFor(press('z', { ctrlKey: true }))).toEqual({ type: 'undo' });
    expect(shortcutFor(press('y', { ctrlKey: true }))).toEqual({ type: 'redo' });
    expect(shortcutFor(press('Z', { ctrlKey: true, shiftKey: true }))).toEqual({ type: 'redo' });
    expect(shortcutFor(press('z', { metaKey: true }))).toEqual({ type: 'undo' });
  });

  it('nudges 1 px with an arrow and 10 px with Shift', () => {
    expect(shortcutFor(press('ArrowLeft'))).toEqual({ type: 'nudge', dx: -1, dy: 0 });
    expect(shortcutFor(press('ArrowDown', { shiftKey: true }))).toEqual({ type: 'nudge', dx: 0, dy: 10 });
  });

  it('deletes, selects all, duplicates, deselects and saves', () => {
    expect(shortcutFor(press('Delete'))).toEqual({ type: 'delete' });
    expect(shortcutFor(press('Backspace'))).toEqual({ type: 'delete' });
    expect(shortcutFor(press('a', { ctrlKey: true }))).toEqual({ type: 'selectAll' });
    expect(shortcutFor(press('d', { ctrlKey: true }))).toEqual({ type: 'duplicate' });
    expect(shortcutFor(press('Escape'))).toEqual({ type: 'deselect' });
    expect(shortcutFor(press('s', { ctrlKey: true }))).toEqual({ type: 'save' });
  });

  it('ignores other keys and Alt combinations', () => {
    expect(shortcutFor(press('a'))).toBeNull();
    expect(shortcutFor(press('z', { ctrlKey: true, altKey: true }))).toBeNull();
    expect(shortcutFor(press('ArrowLeft', { altKey: true }))).toBeNull();
    expect(shortcutFor(press('q', { ctrlKey: true }))).toBeNull();
  });
});
