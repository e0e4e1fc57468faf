import { describe, expect, it } from 'vitest';
import { isFinished, latest, percent, progressOfNotice } from './progress';

const running = { id: 7, total: 10, done: 3, failed: 1, status: 'running' };

describe('request progress', () => {
  it('reads a request.progress notice of its own request only', () => {
    expect(
      progressOfNotice({ type: 'request.progress', id: 7, total: 10, done: 3, failed: 1, status: 'running' }, 7),
    ).toEqual(running);
    expect(progressOfNotice({ type: 'request.progress', id: 8, total: 10, done: 3 }, 7)).toBeUndefined();
    expect(progressOfNotice({ type: 'tag.changed', id: 7 }, 7)).toBeUndefined();
  });
  it('keeps the report that counts more, and a finished one over a late running one', () => {
    const older = { ...running, done: 1 };
    expect(latest(running, older)).toBe(running);
    expect(latest(older, running)).toBe(running);
    const done = { ...running, done: 9, status: 'done' };
    expect(latest(done, running)).toBe(done);
    expect(latest(running, undefined)).toBe(running);
  });
  it('is finished when every task settled, and counts failures toward the percent', () => {
    expect(isFinished(running)).toBe(false);
    expect(isFinished({ ...running, done: 9 })).toBe(true);
    expect(percent(running)).toBe(40);
    expect(percent({ ...running, total: 0, done: 0, failed: 0 })).toBe(100);
  });
});
