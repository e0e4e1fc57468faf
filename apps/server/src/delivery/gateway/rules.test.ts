import { StoreParams } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { Presence } from './presence';
import { batteryPercent } from './tags/report';
import { type TagFacts, tagStatus, thresholdsFromJson, thresholdsOf } from './tags/status';

describe('Presence (damped notices)', () => {
  it('tells online at once, offline only when not back within 10 s', () => {
    const p = new Presence();
    expect(p.set(1, true, 0)).toEqual([{ kind: 'online', stationId: 1, at: 0 }]);
    expect(p.set(1, true, 100)).toEqual([]);
    expect(p.set(1, false, 1000)).toEqual([]);
    expect(p.due(10_999)).toEqual([]);
    expect(p.set(1, true, 5000)).toEqual([]); // back in time: the consoles never saw it go
    expect(p.due(60_000)).toEqual([]);
    expect(p.set(1, false, 70_000)).toEqual([]);
    expect(p.due(80_000)).toEqual([{ kind: 'offline', stationId: 1, at: 80_000 }]);
    expect(p.due(90_000)).toEqual([]);
    expect(p.set(1, true, 90_000)).toEqual([{ kind: 'online', stationId: 1, at: 90_000 }]);
  });
  it('says flapping once per window after more than 5 changes in 5 minutes', () => {
    const p = new Presence();
    const flaps: number[] = [];
    p.set(2, true, 0);
    for (let i = 1; i <= 12; i++) {
      for (const n of p.set(2, i % 2 === 0, i * 1000)) if (n.kind === 'flapping') flaps.push(n.at);
    }
    expect(flaps).toEqual([6000]);
    for (let i = 1; i <= 7; i++) {
      for (const n of p.set(2, i % 2 === 1, 400_000 + i * 1000)) if (n.kind === 'flapping') flaps.push(n.at);
    }
    expect(flaps).toEqual([6000, 407_000]); // 401 s repeats the state: no change
  });
});

describe('tag status (DELIVERY.md §5.5)', () => {
  const th = thresholdsOf(StoreParams.parse({}));
  const now = 10 * 86_400_000;
  const tag = (over: Partial<TagFacts>): TagFacts => ({
    lastSeen: now,
    wakeS: 40,
    shownVer: null,
    desiredHash: null,
    stationOffline: false,
    ...over,
  });
  it.each([
    ['unknown', { lastSeen: null }],
    ['normal', { lastSeen: now - 120_000 }],
    ['normal', { desiredHash: `${'ab'.repeat(8)}${'0'.repeat(48)}`, shownVer: 'ab'.repeat(8) }],
    ['online', { desiredHash: `${'ab'.repeat(8)}${'0'.repeat(48)}`, shownVer: 'cd'.repeat(8) }],
    ['online', { desiredHash: `${'ab'.repeat(8)}${'0'.repeat(48)}`, shownVer: null }],
    ['interrupted', { lastSeen: now - 120_001 }],
    ['interrupted', { lastSeen: now - 31 * 60_000, wakeS: 600 }],
    ['normal', { lastSeen: now - 29 * 60_000, wakeS: 600 }],
    ['normal', { lastSeen: now - 80_000, wakeS: null }], // store default 30 s × 3
    ['interrupted', { lastSeen: now - 100_000, wakeS: null }],
    ['disconnected', { lastSeen: now - 200_000, stationOffline: true }],
    ['normal', { lastSeen: now - 1000, stationOffline: true }],
    ['offline', { lastSeen: now - 3_600_000 }],
    ['lost', { lastSeen: now - 24 * 3_600_000 }],
    ['lost', { lastSeen: now - 30 * 3_600_000, stationOffline: true }],
  ] as const)('%s: %j', (expected, over) => {
    expect(tagStatus(tag(over), now, th)).toBe(expected);
  });
  it('reads thresholds from store parameters, defaults when missing or damaged', () => {
    expect(thresholdsFromJson(undefined)).toEqual(th);
    expect(thresholdsFromJson('{bad')).toEqual(th);
    const custom = thresholdsFromJson(JSON.stringify({ tagMissedWakes: 5, tagOfflineMinutes: 10, tagLostHours: 2 }));
    expect(custom).toEqual({ missedWakes: 5, defaultWakeS: 30, offlineMs: 600_000, lostMs: 7_200_000 });
  });
  it('maps coin-cell millivolts to percent', () => {
    expect([
      batteryPercent(1900),
      batteryPercent(2200),
      batteryPercent(2600),
      batteryPercent(3000),
      batteryPercent(3300),
    ]).toEqual([0, 0, 50, 100, 100]);
  });
});
