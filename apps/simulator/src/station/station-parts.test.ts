import type { TagEntry } from '@esl/contract/protocol';
import { BlobPulls, TagTable } from '@esl/station';
import { describe, expect, it } from 'vitest';
import { runCommand } from './commands';

const entry = (over: Partial<TagEntry> = {}): TagEntry => ({
  id: '0000021A3F5C',
  rssi: -60,
  battMv: 2950,
  temp: 21,
  ver: null,
  hw: '05',
  wakeS: 40,
  seenAt: 0,
  reason: 'timer',
  ...over,
});

describe('TagTable', () => {
  it('reports a new tag, then only changes or a refresh after two wake intervals', () => {
    const t = new TagTable();
    t.record(entry({ seenAt: 1000 }));
    expect(t.takeDue(1000, 1000, false)).toHaveLength(1);
    t.record(entry({ seenAt: 41_000, battMv: 2945 })); // heard again, nothing worth telling
    expect(t.takeDue(41_000, 41_000, false)).toEqual([]);
    t.record(entry({ seenAt: 81_000, rssi: -70 })); // signal moved 10 dB
    expect(t.takeDue(81_000, 81_000, false).map((e) => e.rssi)).toEqual([-70]);
    t.record(entry({ seenAt: 121_000, rssi: -70 }));
    expect(t.takeDue(121_000, 121_000, false)).toEqual([]);
    t.record(entry({ seenAt: 161_000, rssi: -70 })); // 80 s since its last report: refreshed
    expect(t.takeDue(161_000, 161_000, false)).toHaveLength(1);
    // Not heard since its last report: never repeated, however long ago.
    expect(t.takeDue(500_000, 500_000, false)).toEqual([]);
  });

  it('reports a boot at once, and a confirmed version', () => {
    const t = new TagTable();
    t.record(entry({ seenAt: 1000 }));
    t.takeDue(1000, 1000, false);
    t.record(entry({ seenAt: 2000, reason: 'boot' }));
    expect(t.takeDue(2000, 2000, false)).toHaveLength(1);
    t.confirm('0000021A3F5C', 'abcdef0123456789', 3000);
    expect(t.takeDue(3000, 3000, false).map((e) => e.ver)).toEqual(['abcdef0123456789']);
  });

  it('keeps a button wake-up until a report carried it, then reports the timer again', () => {
    const t = new TagTable();
    t.record(entry({ seenAt: 1000 }));
    t.takeDue(1000, 1000, false);
    t.record(entry({ seenAt: 50_000, reason: 'button' }));
    // The tag took a label at the press: the transfer's record (a timer wake) comes before the report.
    t.record(entry({ seenAt: 54_000, reason: 'timer' }));
    t.confirm('0000021A3F5C', 'abcdef0123456789', 54_500);
    expect(t.takeDue(60_000, 60_000, false).map((e) => [e.reason, e.seenAt])).toEqual([['button', 54_500]]);
    t.record(entry({ seenAt: 100_000, reason: 'timer', ver: 'abcdef0123456789' }));
    expect(t.get('0000021A3F5C')?.reason).toBe('timer');
    // A newer wake of another kind replaces one not reported yet.
    t.record(entry({ seenAt: 110_000, reason: 'button' }));
    t.record(entry({ seenAt: 111_000, reason: 'nfc' }));
    expect(t.takeDue(120_000, 120_000, false).map((e) => e.reason)).toEqual(['nfc']);
  });

  it('a full report holds every tag heard within two wake intervals; a new connection hears all again', () => {
    const t = new TagTable();
    t.record(entry({ id: 'AAAAAAAA', seenAt: 0 }));
    t.record(entry({ id: 'BBBBBBBB', seenAt: 50_000 }));
    expect(t.takeDue(100_000, 100_000, true).map((e) => e.id)).toEqual(['BBBBBBBB']);
    expect(t.countPresent(100_000)).toBe(1);
    expect(t.present('AAAAAAAA', 100_000)).toBe(false);
    t.forgetReports();
    expect(t.takeDue(100_000, 100_000, false)).toHaveLength(2);
  });
});

describe('BlobPulls', () => {
  it('asks for missing chunks, four at most in flight, and assembles the blob', () => {
    const p = new BlobPulls(10);
    const blob = Uint8Array.from({ length: 55 }, (_, i) => i);
    p.start('h', blob.length);
    const first = p.nextRequests();
    expect(first.map((r) => [r.offset, r.length])).toEqual([
      [0, 10],
      [10, 10],
      [20, 10],
      [30, 10],
    ]);
    expect(p.nextRequests()).toEqual([]);
    expect(p.receive('h', 10, blob.subarray(10, 20))).toBeNull();
    expect(p.receive('h', 99, blob.subarray(0, 10))).toBeNull(); // never asked for
    expect(p.nextRequests().map((r) => [r.offset, r.length])).toEqual([[40, 10]]);
    // The connection drops: what was in flight is asked again, what arrived is kept.
    p.lostConnection();
    expect(p.nextRequests().map((r) => r.offset)).toEqual([0, 20, 30, 40]);
    for (const o of [0, 20, 30, 40]) expect(p.receive('h', o, blob.subarray(o, o + 10))).toBeNull();
    expect(p.nextRequests().map((r) => [r.offset, r.length])).toEqual([[50, 5]]);
    expect(p.receive('h', 50, blob.subarray(50))).toEqual(blob);
    expect(p.nextRequests()).toEqual([]);
  });
});

describe('runCommand', () => {
  const view = {
    uptimeS: 5,
    queue: 2,
    outbox: 1,
    channel: 11,
    channels: [11, 12],
    tagsHeard: 3,
    localNow: 42,
    logLines: ['a', 'b', 'c'],
    noiseDbm: () => -95,
  };
  it('runs the allow-list and refuses anything else', () => {
    expect(runCommand('status', view)).toEqual({
      out: 'uptime 5 s, queue 2 jobs, outbox 1, channel 11, tags heard 3\n',
      exit: 0,
    });
    expect(runCommand('log tail 2', view).out).toBe('b\nc\n');
    expect(runCommand('scan', view).out).toBe('ch 11: -95 dBm\nch 12: -95 dBm\n');
    expect(runCommand('reboot', view)).toMatchObject({ exit: 0, reboot: true });
    expect(runCommand('rm -rf /', view)).toEqual({ out: 'rm: not allowed\n', exit: 127 });
    expect(runCommand('', view).exit).toBe(127);
  });
});
