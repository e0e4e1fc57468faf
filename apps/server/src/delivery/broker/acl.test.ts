import { topics } from '@esl/contract/protocol';
import { describe, expect, it } from 'vitest';
import { mayPublish, mayReceive, maySubscribe } from './acl';
import { PacketSizeTracker } from './packet-guard';
import { GrowingWaits, waitAfter } from './throttle';

const a = { tenantId: 1, sn: 'AP1' };
const q1 = { qos: 1, retain: false };

describe('mayPublish', () => {
  it('allows own up/… and retained status only', () => {
    expect(mayPublish(a, topics.up(a, 'hello'), q1)).toBeNull();
    expect(mayPublish(a, topics.status(a), { qos: 1, retain: true })).toBeNull();
    expect(mayPublish(a, topics.up(a, 'hello'), { qos: 1, retain: true })).toBe('retain');
    expect(mayPublish(a, topics.up(a, 'hello'), { qos: 2, retain: false })).toBe('qos');
    expect(mayPublish(a, topics.up({ tenantId: 1, sn: 'AP10' }, 'hello'), q1)).toBe('foreignTopic');
    expect(mayPublish(a, topics.up({ tenantId: 11, sn: 'AP1' }, 'hello'), q1)).toBe('foreignTopic');
    expect(mayPublish(a, topics.down(a, 'jobs'), q1)).toBe('notAStationTopic');
    // Any name under its own up/ (as Mosquitto's up/# role): the server drops names it does not know.
    expect(mayPublish(a, 'esl/v1/1/AP1/up/hello/extra', q1)).toBeNull();
    expect(mayPublish(a, 'esl/v1/1/AP1/up/newer', q1)).toBeNull();
    expect(mayPublish(a, 'esl/v1/1/AP1/up/', q1)).toBe('notAStationTopic');
    expect(mayPublish(a, 'esl/v1/1/AP1/up/he\u0000llo', q1)).toBe('notAStationTopic');
    expect(mayPublish(a, 'esl/v1/1/AP1/up/+', q1)).toBe('wildcard');
    expect(mayPublish(a, '$SYS/x', q1)).toBe('notAStationTopic');
  });
});

describe('maySubscribe', () => {
  it('allows only filters inside its own down/', () => {
    expect(maySubscribe(a, 'esl/v1/1/AP1/down/#')).toBeNull();
    expect(maySubscribe(a, 'esl/v1/1/AP1/down/jobs')).toBeNull();
    expect(maySubscribe(a, 'esl/v1/1/AP1/down/blob/+/+')).toBeNull();
    for (const f of [
      'esl/v1/1/AP1/down',
      'esl/v1/1/AP1/#',
      'esl/v1/1/AP10/down/#',
      'esl/v1/1/+/down/#',
      'esl/v1/+/AP1/down/#',
      '#',
      '+/+/+/+/down/#',
      '$share/g/esl/v1/1/AP1/down/#',
    ]) {
      expect(maySubscribe(a, f), f).not.toBeNull();
    }
    expect(maySubscribe(a, 'esl/v1/1/AP1/down/#/x')).toBe('wildcard');
    expect(maySubscribe(a, 'esl/v1/1/AP1/down/jo+')).toBe('wildcard');
    expect(maySubscribe(a, 'esl/v1/1/AP1/down/jo\u0000bs')).toBe('notAStationTopic');
  });

  it('and receives only its own down/ topics', () => {
    expect(mayReceive(a, topics.down(a, 'jobs'))).toBe(true);
    expect(mayReceive(a, topics.down({ tenantId: 1, sn: 'AP10' }, 'jobs'))).toBe(false);
    expect(mayReceive(a, topics.status(a))).toBe(false);
  });
});

describe('GrowingWaits', () => {
  const rule = { free: 2, firstMs: 1000, maxMs: 8000, forgetMs: 60_000 };

  it('makes a key wait after its free failures, doubling to a cap, and never locks it', () => {
    const t = new GrowingWaits(rule);
    expect(t.fail('k', 0)).toBe(false);
    expect(t.fail('k', 0)).toBe(false);
    expect(t.waitMs('k', 0)).toBe(0);
    expect(t.fail('k', 0)).toBe(true); // the first failure that makes it wait
    expect(t.waitMs('k', 0)).toBe(1000);
    expect(t.waitMs('k', 1000)).toBe(0);
    const waits = [];
    for (let i = 0; i < 6; i++) {
      t.fail('k', 1000);
      waits.push(t.waitMs('k', 1000));
    }
    expect(waits).toEqual([2000, 4000, 8000, 8000, 8000, 8000]);
    expect(t.waitMs('other', 1000)).toBe(0);
    t.clear('k');
    expect(t.waitMs('k', 1000)).toBe(0);
    expect(waitAfter(rule, 1000)).toBe(8000);
  });

  it('forgets a key whose last failure is old, and tracks a bounded number of keys', () => {
    const t = new GrowingWaits({ ...rule, free: 0 }, 100);
    t.fail('k', 0);
    expect(t.waitMs('k', 500)).toBe(500);
    t.fail('late', 0);
    t.fail('late', 0);
    expect(t.waitMs('late', 60_000)).toBe(0);
    for (let i = 0; i < 1000; i++) t.fail(`u${i}`, 0);
    expect(t.waitMs('u999', 1)).toBe(999);
    expect(t.waitMs('u0', 1)).toBe(0); // forgotten, oldest first
  });
});

describe('PacketSizeTracker', () => {
  const publish = (bodyBytes: number) => {
    // Fixed header: PUBLISH, then the remaining length as a variable-length integer.
    const len: number[] = [];
    let x = bodyBytes;
    do {
      let b = x % 128;
      x = Math.floor(x / 128);
      if (x > 0) b |= 0x80;
      len.push(b);
    } while (x > 0);
    return Uint8Array.from([0x30, ...len, ...new Uint8Array(bodyBytes)]);
  };

  it('follows packets split anywhere and flags the first too large', () => {
    const t = new PacketSizeTracker(1000);
    const stream = new Uint8Array([...publish(10), ...publish(500), ...publish(0), ...publish(996)]);
    for (let i = 0; i < stream.length; i += 7) expect(t.feed(stream.subarray(i, i + 7))).toBe(0);
    expect(t.feed(publish(998))).toBe(1001);
  });

  it('refuses a length that does not end within four bytes', () => {
    expect(
      new PacketSizeTracker(Number.MAX_SAFE_INTEGER).feed(Uint8Array.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01])),
    ).toBeGreaterThan(0);
  });
});
