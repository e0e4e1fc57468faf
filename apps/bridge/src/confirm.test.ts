import { EMU_TAG_TYPES, emuTags } from '@esl/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { toJpeg } from './oepl/jpeg';
import type { OeplTagType } from './oepl/types';
import { type Rig, startRig } from './test/harness';
import { differingPixels, testImage } from './test/images';

// What counts as shown: only the tag's transfer. A queued upload is not; a transfer timeout and a
// reboot mid-transfer are retried and end shown; a burst of changes costs the AP at most two uploads.

let rig: Rig | null = null;
afterEach(async () => {
  await rig?.stop();
  rig = null;
});

const MAC = '0000EE0000000001';
const type = EMU_TAG_TYPES.get(0x31);
if (!type) throw new Error('type 31');
const start = async (oepl = {}) => {
  rig = await startRig({ tags: [{ mac: MAC, hwType: 0x31 }], oepl });
  const r = rig;
  await r.until(() => r.bridge.aps[0].tagEntries().length === 1, 'tag known');
  return r;
};
const tagOf = (r: Rig) => {
  const t = r.emu.ap.tags.get(MAC);
  if (!t) throw new Error('no tag');
  return t;
};

describe('bridge → emulated OEPL AP: confirmation', () => {
  it('a 200 is not shown: an upload the tag never fetches ends timeout, never ok', async () => {
    const r = await start({ maxWaitMs: 5 * 60_000 });
    tagOf(r).alive = false;
    const image = testImage(296, 128, 'bwr');
    const ver = await r.sendImage(MAC, image);
    await r.until(() => r.emu.ap.uploads.length === 1, 'uploaded');
    await r.advance(2 * 60_000, 1000);
    expect(r.results()).toEqual([]);
    await r.until(() => r.results().length === 1, 'result', 10 * 60_000, 1000);
    expect(r.results()[0]).toMatchObject({ code: 'timeout', tag: MAC });
    expect(tagOf(r).pending).toBe(1);
    // The server retries it: the AP finds the image equal to the one it still holds queued ("the
    // same as current image"), which the tag never took: not `skipped`, the bridge waits for the tag.
    await r.sendImage(MAC, image, { id: 'j2' });
    await r.until(() => r.emu.ap.uploads.length === 2, 'uploaded again');
    await r.advance(60_000, 1000);
    expect(r.results()).toHaveLength(1);
    tagOf(r).alive = true;
    await r.until(() => r.results().length === 2, 'shown', 10 * 60_000, 1000);
    expect(r.results()[1]).toMatchObject({ id: 'j2', code: 'ok', ver });
    const screen = tagOf(r).screen;
    if (!screen) throw new Error('nothing shown');
    expect(differingPixels(image, screen, type)).toBe(0);
  });

  it('an image the AP no longer holds ends timeout by the expected check-in, though the tag keeps checking in', async () => {
    const r = await start();
    tagOf(r).alive = false;
    await r.sendImage(MAC, testImage(296, 128, 'bwr', 7));
    await r.until(() => r.emu.ap.uploads.length === 1 && tagOf(r).pending === 1, 'queued');
    // The AP drops it (or never held it: an upload it found equal to what the tag shows, its
    // "same image" line missed); the tag is back and checks in every minute with nothing pending.
    tagOf(r).queue.length = 0;
    tagOf(r).alive = true;
    const checkIns = tagOf(r).checkIns;
    await r.until(() => r.results().length === 1, 'result', 10 * 60_000, 1000);
    expect(r.results()[0]).toMatchObject({ code: 'timeout', tag: MAC });
    expect(tagOf(r).checkIns).toBeGreaterThan(checkIns);
  });

  it('a transfer timeout is retried and ends shown', async () => {
    const r = await start();
    tagOf(r).timeoutsToCome = 1;
    const image = testImage(296, 128, 'bwr', 5);
    const ver = await r.sendImage(MAC, image);
    await r.until(() => r.results().length === 1, 'result');
    expect(r.results()[0]).toMatchObject({ code: 'ok', ver, tries: 2 });
    expect(r.emu.ap.timeoutcount).toBe(1);
    expect(r.emu.ap.uploads.length).toBe(1);
    const screen = tagOf(r).screen;
    if (!screen) throw new Error('nothing shown');
    expect(differingPixels(image, screen, type)).toBe(0);
  });

  it('a reboot mid-transfer (the AP loses its queue) is uploaded again and ends shown', async () => {
    const r = await start();
    const image = testImage(296, 128, 'bwr', 9);
    const ver = await r.sendImage(MAC, image);
    await r.until(() => r.emu.ap.transferringMac === MAC, 'on the air', 30 * 60_000, 100);
    r.emu.ap.reboot();
    await r.until(() => r.results().length === 1, 'result');
    expect(r.results()[0]).toMatchObject({ code: 'ok', ver, tries: 2 });
    expect(r.emu.ap.uploads.length).toBe(2);
    const screen = tagOf(r).screen;
    if (!screen) throw new Error('nothing shown');
    expect(differingPixels(image, screen, type)).toBe(0);
  });

  it('an image an earlier bridge left queued goes first: ours is ok only after its own transfer', async () => {
    const r = await start();
    const tag = tagOf(r);
    tag.alive = false;
    // The bridge before a restart uploaded an older label, which the AP still holds.
    const tagType = (await (await fetch(`${r.emu.url}/tagtypes/31.json`)).json()) as OeplTagType;
    const older = testImage(296, 128, 'bwr', 30);
    expect(r.emu.ap.upload(MAC, toJpeg(older, tagType), 0).status).toBe(200);
    const image = testImage(296, 128, 'bwr', 31);
    const ver = await r.sendImage(MAC, image);
    await r.until(() => tag.pending === 2, 'both queued');
    tag.alive = true;
    await r.until(() => r.results().length === 1, 'result', 10 * 60_000, 100);
    expect(r.results()[0]).toMatchObject({ code: 'ok', ver });
    // When the bridge says ok, the tag shows ours, not the older one it took first.
    const screen = tag.screen;
    if (!screen) throw new Error('nothing shown');
    expect(differingPixels(image, screen, type)).toBe(0);
    expect(tag.updatecount).toBe(2);
  });

  it('ten changes in a second: at most two uploads, the tag ends on the last', async () => {
    const r = await start();
    const images = Array.from({ length: 10 }, (_, i) => testImage(296, 128, 'bwr', i + 1));
    const vers: string[] = [];
    for (const [i, image] of images.entries()) {
      vers.push(await r.sendImage(MAC, image, { id: `p${i}` }));
      await r.advance(100, 100);
    }
    await r.until(() => r.results().some((x) => x.id === 'p9'), 'last result');
    expect(r.emu.ap.uploads.length).toBeLessThanOrEqual(2);
    expect(r.results().find((x) => x.id === 'p9')).toMatchObject({ code: 'ok', ver: vers[9] });
    const screen = tagOf(r).screen;
    if (!screen) throw new Error('nothing shown');
    expect(differingPixels(images[9], screen, type)).toBe(0);
    expect(r.results().filter((x) => x.code === 'replaced').length).toBeGreaterThanOrEqual(8);
  });
});

describe('bridge → emulated OEPL AP: refresh', () => {
  it('skips a tag that already shows the image; a forced refresh has the AP send it again', async () => {
    const r = await start();
    const image = testImage(296, 128, 'bwr', 2);
    const ver = await r.sendImage(MAC, image);
    await r.until(() => r.results().length === 1, 'first');
    expect(r.results()[0]).toMatchObject({ code: 'ok', ver });
    await r.sendImage(MAC, image, { id: 'j2' });
    await r.until(() => r.results().length === 2, 'second');
    expect(r.results()[1]).toMatchObject({ id: 'j2', code: 'skipped', ver });
    expect(r.emu.ap.uploads.length).toBe(1);
    await r.sendImage(MAC, image, { id: 'j3', force: true });
    await r.until(() => r.results().length === 3, 'forced');
    expect(r.results()[2]).toMatchObject({ id: 'j3', code: 'ok', ver });
    expect(r.emu.ap.uploads.length).toBe(1);
    expect(tagOf(r).updatecount).toBe(2);
  });
});

describe('bridge → emulated OEPL AP: a restarted bridge', () => {
  it('skips each tag that took its image while the bridge was away, uploads following each other', async () => {
    const tags = emuTags(3, [0x31]);
    rig = await startRig({ tags, maxsleep: 0 });
    const r = rig;
    await r.until(() => r.bridge.aps[0].tagEntries().length === 3, 'known');
    // The bridge before the restart (another process: this one knows nothing of it) uploaded the
    // images; the tags took them while no bridge listened.
    const tagType = (await (await fetch(`${r.emu.url}/tagtypes/31.json`)).json()) as OeplTagType;
    const images = tags.map((_, i) => testImage(296, 128, 'bwr', 20 + i));
    for (const [i, t] of tags.entries()) {
      expect(r.emu.ap.upload(t.mac, toJpeg(images[i], tagType), 0).status).toBe(200);
    }
    await r.until(() => [...r.emu.ap.tags.values()].every((t) => t.pending === 0 && t.screen), 'taken', 30 * 60_000);
    const uploads = r.emu.ap.uploads.length;
    // Its WebSocket lags: a log line comes after the next upload has begun.
    r.emu.ap.socketLagMs = 1500;
    // The server sends the same jobs again, all at once: the AP logs "the same as current image"
    // for each, without a MAC, one after the other. Each is the tag's own: skipped, at once.
    const t0 = r.clock.now();
    for (const [i, t] of tags.entries()) await r.sendImage(t.mac, images[i], { id: `again${i}` });
    await r.until(() => r.results().length === 3, 'results', 60_000, 100);
    expect(r.results().map((x) => [x.id, x.code])).toEqual([
      ['again0', 'skipped'],
      ['again1', 'skipped'],
      ['again2', 'skipped'],
    ]);
    expect(r.clock.now() - t0).toBeLessThan(10_000);
    expect(r.emu.ap.uploads.length).toBe(uploads + 3);
  });
});

describe('bridge → emulated OEPL AP: pacing', () => {
  it('keeps at most --max-queued uploads waiting at the AP, and serves every tag', async () => {
    const tags = emuTags(10, [0x31]);
    rig = await startRig({ tags, maxsleep: 0, oepl: { maxQueued: 3 } });
    const r = rig;
    await r.until(() => r.bridge.aps[0].tagEntries().length === 10, 'known');
    for (const [i, t] of tags.entries()) await r.sendImage(t.mac, testImage(296, 128, 'bwr', i), { id: `q${i}` });
    let most = 0;
    await r.until(
      () => {
        most = Math.max(most, [...r.emu.ap.tags.values()].filter((t) => t.pending > 0).length);
        return r.results().length === 10;
      },
      'every tag',
      30 * 60_000,
      250,
    );
    expect(most).toBeLessThanOrEqual(3);
    expect(most).toBeGreaterThan(1);
    expect(r.results().every((x) => x.code === 'ok')).toBe(true);
  });
});
