import type { TagColourType } from '@esl/contract';
import { EMU_TAG_TYPES } from '@esl/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { type Rig, startRig } from './test/harness';
import { differingPixels, testImage } from './test/images';

// The bridge between an emulated OEPL access point and an in-test broker playing the server: a
// job's picture must reach the emulated tag pixel for pixel after the AP's own palette mapping,
// and only the tag's transfer counts as shown.

let rig: Rig | null = null;
afterEach(async () => {
  await rig?.stop();
  rig = null;
});

const MAC = (i: number) => `0000EE${i.toString(16).toUpperCase().padStart(10, '0')}`;

describe('bridge → emulated OEPL AP: pictures', () => {
  const cases: [string, number, TagColourType, 0 | 1 | 3][] = [
    ['black/white', 0x30, 'bw', 0],
    ['black/white/red', 0x31, 'bwr', 0],
    ['black/white/yellow', 0x32, 'bwy', 0],
    ['four colours', 0x33, 'bwry', 0],
    ['a rotated (portrait) type', 0x34, 'bwr', 3],
  ];
  it.each(cases)('%s: 0 differing pixels, dither 0, reported ok only after the transfer', async (_n, hw, ct, turn) => {
    rig = await startRig({ tags: [{ mac: MAC(1), hwType: hw }] });
    const r = rig;
    const type = EMU_TAG_TYPES.get(hw);
    if (!type) throw new Error('type');
    const [w, h] = turn ? [type.height, type.width] : [type.width, type.height];
    const image = testImage(w, h, ct, hw);
    await r.until(() => r.bridge.aps[0].tagEntries().length === 1, 'tag known with its model');
    const ver = await r.sendImage(MAC(1), image);
    await r.until(() => r.emu.ap.uploads.length === 1, 'uploaded');
    // 200 is not shown: queued at the AP, no result yet.
    expect(r.results()).toEqual([]);
    await r.until(() => r.results().length === 1, 'result');
    expect(r.results()[0]).toMatchObject({ id: 'j1', rev: 1, code: 'ok', tag: MAC(1), ver });
    const tag = r.emu.ap.tags.get(MAC(1));
    if (!tag?.screen) throw new Error('nothing shown');
    expect(differingPixels(image, tag.screen, type, turn)).toBe(0);
    expect(r.emu.ap.uploads.map((u) => u.dither)).toEqual([0]);
    // The next report says the tag shows our version.
    await r.until(() => r.of('tags').some((m) => m.tags.some((e) => e.id === MAC(1) && e.ver === ver)), 'report');
  });
});
