import type { Job } from '@esl/contract/protocol';
import { describe, expect, it } from 'vitest';
import { acceptJobs, type HeldJob } from './jobs';
import { Outbox } from './outbox';

const image = (id: string, rev: number, tag = '0000EE0000000001'): Job => ({
  id,
  rev,
  att: 1,
  kind: 'image',
  tag,
  prio: 1,
  ttlS: 60,
  image: { hash: 'a'.repeat(64), ver: 'a'.repeat(16), size: 10 },
});

describe('acceptJobs', () => {
  it('acks new jobs, again a duplicate, refuses stale revs, unknown kinds and a full queue; a newer image replaces the queued one', () => {
    const queue = new Map<string, HeldJob>();
    const replaced: string[] = [];
    const ctx = (queueSize = 10) => ({
      queue,
      kinds: ['image' as const],
      queueSize,
      now: 0,
      replaced: (j: Job) => replaced.push(j.id),
      queued: () => {},
    });
    expect(acceptJobs(ctx(), [image('a', 2)])).toEqual([{ id: 'a', rev: 2, ok: true }]);
    expect(acceptJobs(ctx(), [image('a', 2), image('a', 1)])).toEqual([
      { id: 'a', rev: 2, ok: true },
      { id: 'a', rev: 1, ok: false, code: 'stale' },
    ]);
    const led: Job = { id: 'l', rev: 1, att: 1, kind: 'rollcall', prio: 0, ttlS: 60 };
    expect(acceptJobs(ctx(), [led])[0]).toMatchObject({ ok: false, code: 'unsupported' });
    expect(acceptJobs(ctx(), [image('b', 1)])).toEqual([{ id: 'b', rev: 1, ok: true }]);
    expect(replaced).toEqual(['a']);
    expect([...queue.keys()]).toEqual(['b']);
    expect(acceptJobs(ctx(1), [image('c', 1, '0000EE0000000002')])[0]).toMatchObject({ ok: false, code: 'full' });
  });
});

describe('Outbox', () => {
  it('keeps results until confirmed, sends only while ready, resends all after a welcome', async () => {
    const sent: string[][] = [];
    let ready = false;
    const out = new Outbox(
      (rs) => sent.push(rs.map((r) => `${r.id}:${r.rev}:${r.code}`)),
      () => ready,
    );
    out.add(image('a', 1), 'ok', {}, 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([]);
    ready = true;
    out.resendAll();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([['a:1:ok']]);
    out.confirm('a', 1);
    expect(out.size).toBe(0);
  });
});
