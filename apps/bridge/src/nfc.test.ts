import type { NfcPayload } from '@esl/contract/protocol';
import { EMU_TAG_TYPES } from '@esl/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { type Rig, startRig } from './test/harness';
import { differingPixels, testImage } from './test/images';

// NFC content through an OpenEPaperLink AP (docs/OEPL.md "NFC", docs/PROTOCOL.md §5.16): the tag's
// NFC URL is the AP's content mode 14 set with /save_cfg, sent as data at the tag's check-in. The
// same content mode carries the bridge's picture uploads, so a URL and a picture for one tag go
// one after the other, and the mode goes back to 25 once the URL is written.

let rig: Rig | null = null;
afterEach(async () => {
  await rig?.stop();
  rig = null;
});

const WITH_NFC = '0000EE0000000001';
const WITHOUT_NFC = '0000EE0000000002';
const URL = 'https://shop.example/p/42';
const type = EMU_TAG_TYPES.get(0x31);
if (!type) throw new Error('type 31');

const start = async () => {
  // 0x31 tags report the NFC capability bit; the 0x30 one has no chip.
  rig = await startRig({
    tags: [
      { mac: WITH_NFC, hwType: 0x31 },
      { mac: WITHOUT_NFC, hwType: 0x30 },
    ],
  });
  const r = rig;
  await r.until(() => r.bridge.aps[0].tagEntries().length === 2, 'tags known');
  return r;
};
const tagOf = (r: Rig, mac: string) => {
  const t = r.emu.ap.tags.get(mac);
  if (!t) throw new Error(`no tag ${mac}`);
  return t;
};
const sendNfc = (r: Rig, tag: string, nfc: NfcPayload, job: { id?: string; force?: boolean } = {}) =>
  r.send('jobs', {
    v: 1,
    jobs: [{ id: job.id ?? 'n1', rev: 1, att: 1, kind: 'nfc', tag, prio: 2, ttlS: 3600, nfc, force: job.force }],
  });
const resultOf = (r: Rig, id: string) => r.results().find((x) => x.id === id);

describe('bridge → emulated OEPL AP: NFC', () => {
  it('lists nfc among the kinds it takes', async () => {
    const r = await start();
    expect(r.of('hello').at(-1)?.caps.kinds).toContain('nfc');
  });

  it('writes a URL at the tag’s check-in, confirmed by its transfer; the picture stays, the content mode goes back to 25', async () => {
    const r = await start();
    const image = testImage(296, 128, 'bwr', 5);
    const ver = await r.sendImage(WITH_NFC, image);
    await r.until(() => resultOf(r, 'j1') !== undefined, 'picture shown');
    expect(resultOf(r, 'j1')).toMatchObject({ code: 'ok', ver });

    await sendNfc(r, WITH_NFC, { type: 'uri', value: URL });
    // The AP is told (content mode 14, the URL in its settings), but nothing is written before the tag takes it.
    await r.until(() => tagOf(r, WITH_NFC).contentMode === 14, 'content mode 14', 60_000, 50);
    expect(JSON.parse(tagOf(r, WITH_NFC).modecfgjson)).toEqual({ url: URL });
    expect(resultOf(r, 'n1')).toBeUndefined();
    await r.until(() => resultOf(r, 'n1') !== undefined, 'NFC result');
    expect(resultOf(r, 'n1')).toMatchObject({ code: 'ok', tag: WITH_NFC });
    const t = tagOf(r, WITH_NFC);
    expect(t.nfc).toBe(URL);
    expect(t.nfcWrites).toBe(1);
    // The screen is untouched, and the AP's tag is back in the uploads' mode.
    expect(t.imageWrites).toBe(1);
    expect(t.screen && differingPixels(image, t.screen, type)).toBe(0);
    expect(t.contentMode).toBe(25);

    // The AP now keeps the record's MD5 as the tag's hash; the tag is still reported showing our picture.
    await r.advance(120_000, 1000);
    const entry = r.bridge.aps[0].tagEntries().find((e) => e.id === WITH_NFC);
    expect(entry?.ver).toBe(ver);
    // …so the same picture again is skipped without an upload, and the same URL without a write.
    const uploads = r.emu.ap.uploads.length;
    await r.sendImage(WITH_NFC, image, { id: 'j2' });
    await r.until(() => resultOf(r, 'j2') !== undefined, 'same picture');
    expect(resultOf(r, 'j2')).toMatchObject({ code: 'skipped', ver });
    expect(r.emu.ap.uploads.length).toBe(uploads);
    await sendNfc(r, WITH_NFC, { type: 'uri', value: URL }, { id: 'n2' });
    await r.until(() => resultOf(r, 'n2') !== undefined, 'same URL');
    expect(resultOf(r, 'n2')).toMatchObject({ code: 'skipped' });
    expect(tagOf(r, WITH_NFC).nfcWrites).toBe(1);
  });

  it('a forced refresh after a URL write has the AP send the picture again, not the URL', async () => {
    const r = await start();
    const image = testImage(296, 128, 'bwr', 6);
    const ver = await r.sendImage(WITH_NFC, image);
    await r.until(() => resultOf(r, 'j1') !== undefined, 'picture shown');
    await sendNfc(r, WITH_NFC, { type: 'uri', value: URL });
    await r.until(() => resultOf(r, 'n1') !== undefined, 'NFC result');
    expect(resultOf(r, 'n1')?.code).toBe('ok');
    await r.sendImage(WITH_NFC, image, { id: 'j3', force: true });
    await r.until(() => resultOf(r, 'j3') !== undefined, 'forced');
    expect(resultOf(r, 'j3')).toMatchObject({ code: 'ok', ver });
    const t = tagOf(r, WITH_NFC);
    expect(t.imageWrites).toBe(2);
    expect(t.nfcWrites).toBe(1);
  });

  it('a picture and a URL for the same tag sent together both arrive, one after the other', async () => {
    const r = await start();
    const image = testImage(296, 128, 'bwr', 7);
    const enc = await r.sendImage(WITH_NFC, image);
    await sendNfc(r, WITH_NFC, { type: 'uri', value: URL });
    await r.until(() => resultOf(r, 'j1') !== undefined && resultOf(r, 'n1') !== undefined, 'both results');
    expect(resultOf(r, 'j1')).toMatchObject({ code: 'ok', ver: enc });
    expect(resultOf(r, 'n1')).toMatchObject({ code: 'ok' });
    const t = tagOf(r, WITH_NFC);
    expect(t.nfc).toBe(URL);
    expect(t.screen && differingPixels(image, t.screen, type)).toBe(0);
    expect(t.contentMode).toBe(25);
  });

  it('refuses a tag without NFC, a text record and a URL too long for the AP, with the reason, telling the AP nothing', async () => {
    const r = await start();
    await sendNfc(r, WITHOUT_NFC, { type: 'uri', value: URL }, { id: 'n1' });
    await sendNfc(r, WITH_NFC, { type: 'text', value: 'Grown in Spain' }, { id: 'n2' });
    await sendNfc(r, WITH_NFC, { type: 'uri', value: `${URL}?${'x'.repeat(250)}` }, { id: 'n3' });
    await r.until(() => r.results().length === 3, 'three results', 60_000, 50);
    expect(resultOf(r, 'n1')).toMatchObject({ code: 'unsupported', tag: WITHOUT_NFC });
    expect(resultOf(r, 'n2')).toMatchObject({ code: 'unsupported', tag: WITH_NFC });
    expect(resultOf(r, 'n3')).toMatchObject({ code: 'unsupported', tag: WITH_NFC });
    const lines = r.bridge.link.logLines;
    expect(lines.join('\n')).toMatch(/n1:1 → 0000EE0000000002: unsupported \(the tag has no NFC/);
    expect(lines.join('\n')).toMatch(/n2:1 → 0000EE0000000001: unsupported \(.*only NFC URLs/);
    expect(lines.join('\n')).toMatch(/n3:1 → 0000EE0000000001: unsupported \(the URL is longer/);
    for (const mac of [WITH_NFC, WITHOUT_NFC]) {
      expect(tagOf(r, mac)).toMatchObject({ contentMode: 25, nfc: null, nfcWrites: 0 });
    }
  });
});
