import { describe, expect, it } from 'vitest';
import type { TagDelivery } from './api';
import { labelState } from './label';

type Task = TagDelivery['tasks'][number];

function delivery(...tasks: Array<Pick<Task, 'kind' | 'state' | 'code'>>): TagDelivery {
  return {
    tagId: 7,
    wakeS: 30,
    nextWakeAt: null,
    tasks: tasks.map((task) => ({
      ...task,
      kindName: task.kind,
      rev: 3,
      attempts: 1,
      message: '',
      stationSn: null,
      requestId: null,
      queuedAt: 1,
      sentAt: null,
      finishedAt: null,
      expectedAt: null,
    })),
  };
}

describe('the bound tag’s label, from its label task', () => {
  it('is up to date at once when the new label is the picture the tag shows (skipped, nothing sent)', () => {
    expect(labelState(delivery({ kind: 'image', state: 'done', code: 'skipped' }))).toBe('current');
  });

  it('is updated once the tag confirmed the new label', () => {
    expect(labelState(delivery({ kind: 'image', state: 'done', code: 'ok' }))).toBe('updated');
    expect(labelState(delivery({ kind: 'image', state: 'done', code: '' }))).toBe('updated');
  });

  it('is still updating while the task renders, waits or is on its way, or was replaced by a newer one', () => {
    for (const state of ['render', 'queued', 'sent', 'accepted', 'cancelled'] as const) {
      expect(labelState(delivery({ kind: 'image', state, code: '' })), state).toBe('updating');
    }
    // A retry after a timeout is still on its way.
    expect(labelState(delivery({ kind: 'image', state: 'queued', code: 'timeout' }))).toBe('updating');
    expect(labelState(delivery())).toBe('updating');
  });

  it('failed when the label task ended failed; other tasks (an LED flash) do not count', () => {
    expect(labelState(delivery({ kind: 'image', state: 'failed', code: 'timeout' }))).toBe('failed');
    expect(
      labelState(delivery({ kind: 'led', state: 'failed', code: 'nack' }, { kind: 'image', state: 'sent', code: '' })),
    ).toBe('updating');
  });
});
