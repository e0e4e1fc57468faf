import { describe, expect, it } from 'vitest';
import { decodeMessage } from './codec';
import { EXAMPLES } from './examples';
import { fastTagsMsg } from './fast';
import { TagsMsg } from './messages';

// The hand-written `up/tags` check must accept exactly what the zod schema accepts, and answer the
// same value. Generated messages: every field of an entry (and of the envelope) takes, at random,
// a valid value, a boundary just inside or outside, another type, or goes missing.

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x1_0000_0000;
  };
}

const MISSING = Symbol('missing');
const ENTRY_VALUES: Record<string, unknown[]> = {
  id: ['0A1B2C3D', '0A1B2C3D4E5F6071', '0a1b2c3d', '0A1B2C3', '0A1B2C3D4E5F60718', '', 12345678, null, MISSING],
  rssi: [-60, -150, 30, -150.5, 30.1, -72.25, '−60', null, Number.NaN, MISSING],
  lqi: [0, 255, 256, -1, 12.5, '12', null, MISSING, MISSING],
  battMv: [2900, 0, 10_000, 10_001, -1, 2900.5, '2900', null, MISSING],
  temp: [21.5, -60, 125, -60.1, 125.1, '21', null, MISSING, MISSING],
  ver: ['0123456789abcdef', null, '0123456789ABCDEF', '0123456789abcde', '', 7, MISSING],
  fw: ['1.2.3', 'a'.repeat(32), 'a'.repeat(33), '', '1 2', 3, null, MISSING, MISSING],
  hw: [
    '05',
    'A1',
    'oepl-35',
    'bt-x-1A',
    'a1',
    '5',
    '051',
    'OEPL-35',
    'oepl-',
    `oepl-${'1'.repeat(29)}`,
    5,
    null,
    MISSING,
  ],
  wakeS: [40, 1, 604_800, 0, 604_801, 40.5, '40', null, MISSING, MISSING],
  seenAt: [1_760_000_000_000, 0, 8_640_000_000_000, 8_640_000_000_001, -1, 1.5, '1', null, MISSING],
  reason: ['timer', 'boot', 'rescan', 'Timer', '', 1, null, MISSING, MISSING],
  page: [2, 1, 8, 0, 9, 1.5, '2', null, MISSING, MISSING, MISSING],
  extra: ['x', { a: 1 }, MISSING, MISSING],
};
const ENVELOPE_VALUES: Record<string, unknown[]> = {
  v: [1, 1, 1, 2, '1', MISSING],
  seq: [0, 7, 0xffff_ffff, 0x1_0000_0000, -1, 1.5, MISSING],
  at: [1_760_000_000_000, 0, -1, 2.5, '1', MISSING],
  full: [true, false, 'true', 0, null, MISSING],
  extra: [MISSING, MISSING, 'x'],
};

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

function build(r: () => number, values: Record<string, unknown[]>, validBias: number) {
  const o: Record<string, unknown> = {};
  for (const [k, vs] of Object.entries(values)) {
    // Mostly the first (valid) value, so that whole reports are often valid.
    const v = r() < validBias ? vs[0] : pick(r, vs);
    if (v !== MISSING) o[k] = v;
  }
  return o;
}

describe('the fast up/tags check', () => {
  it('agrees with the zod schema on 20,000 generated reports', () => {
    const r = rng(20261125);
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const n = Math.floor(r() * 4);
      const msg = build(r, ENVELOPE_VALUES, 0.8);
      const tags = Array.from({ length: n }, () => build(r, ENTRY_VALUES, 0.85));
      msg.tags = r() < 0.02 ? 'nope' : tags;
      const zod = TagsMsg.safeParse(msg);
      const fast = fastTagsMsg(msg);
      if (zod.success) {
        accepted++;
        expect(fast).toEqual(zod.data);
        // Same keys, not only the same values: no optional key present as undefined.
        const keys = (m: { tags: object[] } | null) => m?.tags.map((e) => Object.keys(e).sort().join());
        expect(keys(fast)).toEqual(keys(zod.data));
      } else {
        expect(fast, JSON.stringify(msg)).toBeNull();
      }
    }
    // The generator produced both kinds in numbers.
    expect(accepted).toBeGreaterThan(2_000);
    expect(accepted).toBeLessThan(18_000);
  }, 60_000);

  it('refuses more entries than a report may hold, as zod does', () => {
    const one = EXAMPLES.tags.tags[0];
    const msg = { ...EXAMPLES.tags, tags: Array.from({ length: 501 }, () => one) };
    expect(TagsMsg.safeParse(msg).success).toBe(false);
    expect(fastTagsMsg(msg)).toBeNull();
    expect(fastTagsMsg({ ...msg, tags: msg.tags.slice(0, 500) })).not.toBeNull();
  });

  it('leaves the reason of a refusal to zod', () => {
    const bad = { ...EXAMPLES.tags, tags: [{ ...EXAMPLES.tags.tags[0], battMv: -1 }] };
    const decoded = decodeMessage('tags', JSON.stringify(bad));
    expect(decoded).toMatchObject({ ok: false, error: 'invalid' });
    if (!decoded.ok) expect(decoded.detail).toMatch(/^tags\.0\.battMv:/);
  });
});
