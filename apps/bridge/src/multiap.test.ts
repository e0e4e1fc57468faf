import { EMU_TAG_TYPES, emuTags } from '@esl/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { type Rig, startRig } from './test/harness';
import { differingPixels, testImage } from './test/images';

// A shop with two APs whose databases list each other's tags (`isexternal`): one bridge drives
// both (`--ap` twice) and sends each tag's images to the AP that serves it.

let rig: Rig | null = null;
afterEach(async () => {
  await rig?.stop();
  rig = null;
});

const TYPE = 0x31;
const [A, B] = emuTags(2, [TYPE]).map((t) => t.mac) as [string, string];
const X = '0000EE00000000A0';
const reported = (r: Rig) => new Set(r.of('tags').flatMap((m) => m.tags.map((e) => e.id)));
const uploadsFor = (r: Rig, ap: 'first' | 'second', mac: string) =>
  (ap === 'first' ? r.emu : r.emu2)?.ap.uploads.filter((u) => u.mac === mac).length ?? 0;

async function showsOn(r: Rig, ap: 'first' | 'second', mac: string, seed: number): Promise<void> {
  const image = testImage(296, 128, 'bwr', seed);
  const before = r.results().length;
  const ver = await r.sendImage(mac, image, { id: `j${seed}` });
  await r.until(() => r.results().length > before, `${mac} served`);
  expect(r.results().at(-1)).toMatchObject({ code: 'ok', tag: mac, ver });
  const screen = (ap === 'first' ? r.emu : r.emu2)?.ap.tags.get(mac)?.screen;
  const type = EMU_TAG_TYPES.get(TYPE);
  if (!screen || !type) throw new Error(`${mac} shows nothing on the ${ap} AP`);
  expect(differingPixels(image, screen, type)).toBe(0);
}

describe('bridge → two emulated OEPL APs: a tag is served by the AP that has it', () => {
  it('routes each tag’s image to its own AP, never to the AP that lists it as external', async () => {
    rig = await startRig({
      tags: [
        { mac: A, hwType: TYPE },
        { mac: B, hwType: TYPE },
      ],
      external: [{ mac: X, hwType: TYPE, apip: '192.168.7.12' }],
      second: { tags: [{ mac: X, hwType: TYPE }], external: [{ mac: A, hwType: TYPE, apip: '192.168.7.11' }] },
    });
    const r = rig;
    await r.until(() => reported(r).size === 3, 'A, B and X reported', 5 * 60_000, 1000);
    expect([...reported(r)].sort()).toEqual([A, B, X].sort());

    await showsOn(r, 'second', X, 1);
    expect(uploadsFor(r, 'first', X)).toBe(0);
    await showsOn(r, 'first', A, 2);
    expect(uploadsFor(r, 'second', A)).toBe(0);

    // B moves to the second AP: the first now lists it as external, and B's next image goes there.
    r.emu2?.ap.addTag(B, TYPE);
    r.emu.ap.addExternalTag(B, TYPE, '192.168.7.12');
    const [first, second] = r.bridge.aps;
    await r.until(() => !first?.has(B) && second?.has(B) === true, 'B known on the second AP only', 5 * 60_000, 1000);
    await showsOn(r, 'second', B, 3);
    expect(uploadsFor(r, 'first', B)).toBe(0);
  });
});
