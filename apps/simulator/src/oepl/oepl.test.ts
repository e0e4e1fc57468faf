import jpeg from 'jpeg-js';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { VirtualClock } from '../clock';
import { wallJson } from '../wall';
import { emuTags, type OeplAp, startOeplAp } from './index';
import { mapToPalette } from './palette';
import { oeplWallStation } from './wall';

// The emulated OpenEPaperLink AP against its documented behaviour (../shared/OEPL.md §1): replies
// and status codes, /get_db paging and its 255-tag wall, palette mapping, check-in cadence, one
// transfer at a time at ~3.9 s per 296×128 two-plane image, superseded images all delivered.

let emu: OeplAp | null = null;
let clock: VirtualClock;
afterEach(async () => {
  await emu?.stop();
  emu = null;
  clock?.stop();
});

const start = async (count: number, hwTypes = [0x31], maxsleep = 10) => {
  clock = new VirtualClock({ speed: 0, start: Date.UTC(2026, 0, 5, 9) });
  emu = await startOeplAp({ clock, tags: emuTags(count, hwTypes), maxsleep });
  return emu;
};

/** A solid-colour JPEG at quality 100. */
const solid = (w: number, h: number, rgb: [number, number, number]) => {
  const data = Buffer.alloc(w * h * 4);
  for (let i = 0; i < w * h; i++) data.set([...rgb, 255], i * 4);
  return new Uint8Array(jpeg.encode({ data, width: w, height: h }, 100).data);
};

const upload = async (url: string, mac: string, file: Uint8Array) => {
  const form = new FormData();
  form.set('mac', mac);
  form.set('dither', '0');
  form.set('file', new Blob([file], { type: 'image/jpeg' }), 'x.jpg');
  const res = await fetch(`${url}/imgupload`, { method: 'POST', body: form });
  return { status: res.status, text: await res.text(), cors: res.headers.get('access-control-allow-origin') };
};

describe('emulated OEPL AP', () => {
  it('answers uploads in plain text: 200 queued, 400 unknown MAC, 409 while not running', async () => {
    const e = await start(1);
    const mac = emuTags(1)[0].mac;
    expect(await upload(e.url, mac, solid(296, 128, [255, 0, 0]))).toEqual({
      status: 200,
      text: 'Ok, saved',
      cors: '*',
    });
    expect(e.ap.tags.get(mac)?.pending).toBe(1);
    expect((await upload(e.url, '00000000DEADBEEF', solid(296, 128, [0, 0, 0]))).status).toBe(400);
    e.ap.reboot(10_000);
    expect(await upload(e.url, mac, solid(296, 128, [0, 0, 0]))).toMatchObject({
      status: 409,
      text: 'Come back later',
    });
    expect(e.ap.tags.get(mac)?.pending).toBe(0); // the queue is in RAM
    await clock.advance(10_000);
    expect((await upload(e.url, mac, solid(296, 128, [0, 0, 0]))).status).toBe(200);
  });

  it('pages /get_db by ~5,000 bytes and cannot page past 255 tags (pos is one byte); /backup_db has them all', async () => {
    const e = await start(300);
    const first = (await (await fetch(`${e.url}/get_db?pos=0`)).json()) as { tags: unknown[]; continu: number };
    expect(JSON.stringify(first.tags).length).toBeGreaterThanOrEqual(5000);
    expect(JSON.stringify(first.tags).length).toBeLessThan(6000);
    const seen = new Set<string>();
    let pos = 0;
    for (let page = 0; page < 60; page++) {
      const p = (await (await fetch(`${e.url}/get_db?pos=${pos}`)).json()) as {
        tags: { mac: string }[];
        continu: number;
      };
      for (const t of p.tags) seen.add(t.mac);
      if (p.continu === 0) break;
      pos = p.continu;
    }
    expect(seen.size).toBeLessThan(300);
    const all = (await (await fetch(`${e.url}/backup_db`)).json()) as unknown[];
    expect(all.length).toBe(300);
    const one = (await (await fetch(`${e.url}/get_db?mac=${emuTags(300)[299].mac}`)).json()) as { tags: unknown[] };
    expect(one.tags.length).toBe(1);
  });

  it('maps to the colour table by weighted distance and never turns a grey into a colour', () => {
    const table = [
      [255, 255, 255],
      [0, 0, 0],
      [255, 0, 0],
    ] as const;
    const px = (r: number, g: number, b: number) => new Uint8Array([r, g, b, 255]);
    const map = (p: Uint8Array) => mapToPalette(p, table)[0];
    expect(map(px(254, 1, 2))).toBe(2);
    expect(map(px(250, 250, 250))).toBe(0);
    expect(map(px(3, 2, 1))).toBe(1);
    expect(map(px(140, 128, 128))).not.toBe(2); // grey-ish: black or white only
    expect(map(px(200, 60, 60))).toBe(2);
  });

  it('runs one transfer at a time, ~3.9 s per 296×128 two-plane image, and delivers every superseded image', async () => {
    const e = await start(2, [0x31], 0);
    const [a, b] = emuTags(2).map((t) => t.mac);
    const lines: { at: number; line: string }[] = [];
    e.ap.onMessage((m) => {
      if (typeof m.logMsg === 'string') lines.push({ at: clock.now(), line: m.logMsg });
    });
    await upload(e.url, a, solid(296, 128, [255, 0, 0]));
    await upload(e.url, a, solid(296, 128, [0, 0, 0]));
    await upload(e.url, b, solid(296, 128, [255, 0, 0]));
    e.ap.pressButton(a);
    e.ap.pressButton(b);
    await clock.advance(3899);
    expect(lines.filter((l) => l.line.endsWith('reports xfer complete'))).toEqual([]);
    await clock.advance(1);
    const done = () => lines.filter((l) => l.line.endsWith('reports xfer complete'));
    expect(done().map((l) => l.line)).toEqual([`${a} reports xfer complete`]);
    await clock.advance(3900); // b was waiting for the radio
    expect(done().map((l) => l.line)).toEqual([`${a} reports xfer complete`, `${b} reports xfer complete`]);
    await clock.advance(5000 + 3900); // a is offered its second (superseded) image 5 s later
    expect(e.ap.tags.get(a)?.updatecount).toBe(2);
    expect(e.ap.tags.get(a)?.pending).toBe(0);
    expect(e.ap.radio.transfers).toBe(3);
  });

  it('keeps a timed-out image queued for the next check-in and says so on the WebSocket', async () => {
    const e = await start(1, [0x31], 0);
    const mac = emuTags(1)[0].mac;
    const ws = new WebSocket(`${e.url.replace('http', 'ws')}/ws`);
    const msgs: Record<string, unknown>[] = [];
    ws.on('message', (d) => msgs.push(JSON.parse(String(d))));
    await new Promise((resolve) => ws.once('open', resolve));
    const tag = e.ap.tags.get(mac);
    if (!tag) throw new Error('tag');
    tag.timeoutsToCome = 1;
    await upload(e.url, mac, solid(296, 128, [255, 0, 0]));
    e.ap.pressButton(mac);
    await clock.advance(4000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(msgs.some((m) => m.errMsg === `${mac} xfer timeout`)).toBe(true);
    expect(tag.pending).toBe(1);
    await clock.advance(40_000 + 4000);
    expect(tag.updatecount).toBe(1);
    // sys every 5 s; lowbattcount/timeoutcount in one message of twelve
    await clock.advance(60_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sys = msgs.filter((m) => m.sys).map((m) => m.sys as Record<string, unknown>);
    expect(sys.length).toBeGreaterThanOrEqual(20);
    expect(sys.filter((s) => 'timeoutcount' in s).length).toBe(Math.floor(sys.length / 12));
    ws.close();
  });

  it('tags check in every 40 s while a WebSocket client holds stopsleep=1, else sleep to maxsleep', async () => {
    const e = await start(1, [0x31], 10);
    const tag = e.ap.tags.get(emuTags(1)[0].mac);
    if (!tag) throw new Error('tag');
    await clock.advance(40_000);
    expect(tag.nextcheckin - tag.lastseen).toBe(600);
    const ws = new WebSocket(`${e.url.replace('http', 'ws')}/ws`);
    await new Promise((resolve) => ws.once('open', resolve));
    await clock.advance(600_000);
    expect(tag.nextcheckin - tag.lastseen).toBe(40);
    ws.close();
  });

  it('shows its tags on the store wall as the palette mapping left them', async () => {
    const e = await start(1, [0x33], 0);
    const mac = emuTags(1)[0].mac;
    await upload(e.url, mac, solid(296, 128, [255, 255, 0]));
    const station = oeplWallStation(e.ap);
    expect(wallJson([station])[0].tags[0]).toMatchObject({ id: mac, ver: null, job: 'pending' });
    e.ap.pressButton(mac);
    await clock.advance(4000);
    const [t] = wallJson([station])[0].tags;
    expect(t).toMatchObject({ id: mac, width: 296, height: 128, transfers: 1, job: null });
    const screen = station.tags.get(mac)?.screen();
    expect(screen?.image.colourType).toBe('bwry');
    expect(new Set(screen?.image.data)).toEqual(new Set([3])); // yellow, our fourth ink
  });

  it('writes an NFC URL set with /save_cfg (content mode 14) once the tag is due; the screen stays', async () => {
    const e = await start(2, [0x31, 0x30], 1);
    const [withNfc, without] = emuTags(2, [0x31, 0x30]).map((x) => x.mac);
    const tag = e.ap.tags.get(withNfc);
    if (!tag) throw new Error('tag');
    // Capability bit 0x40 for the type that has NFC, not for the other.
    expect(tag.record().capabilities).toBe(0x61);
    expect(e.ap.tags.get(without)?.record().capabilities).toBe(0x20);
    await upload(e.url, withNfc, solid(296, 128, [255, 0, 0]));
    await clock.advance(60_000);
    expect(tag.imageWrites).toBe(1);
    const screen = tag.screen;
    const saveCfg = async (fields: Record<string, string>) => {
      const res = await fetch(`${e.url}/save_cfg`, { method: 'POST', body: new URLSearchParams(fields) });
      return { status: res.status, text: await res.text() };
    };
    // The AP answers 200 for a MAC it does not know, the error in the text.
    expect(await saveCfg({ mac: '00000000DEADBEEF', contentmode: '14' })).toEqual({
      status: 200,
      text: 'Error while saving: mac not found',
    });
    const url = 'https://shop.example/p/1';
    expect(await saveCfg({ mac: withNfc, contentmode: '14', modecfgjson: JSON.stringify({ url }) })).toEqual({
      status: 200,
      text: 'Ok, saved',
    });
    expect(tag.record()).toMatchObject({ contentMode: 14, nextupdate: 0 });
    await clock.advance(61_000);
    // Drawn, sent at the check-in as data: the chip holds it, the AP keeps its MD5 as the hash.
    expect(tag.nfc).toBe(url);
    expect(tag.nfcWrites).toBe(1);
    expect(tag.screen).toBe(screen);
    expect(tag.imageWrites).toBe(1);
    expect(tag.updatecount).toBe(2);
    expect(tag.hash).not.toBe(screen?.md5);
    expect(tag.record()).toMatchObject({ contentMode: 14, nextupdate: 3216153600, pending: 0 });

    // An upload before the AP drew the mode-14 setting overwrites it: that URL is never written.
    await saveCfg({ mac: withNfc, contentmode: '14', modecfgjson: JSON.stringify({ url: `${url}?v=2` }) });
    await upload(e.url, withNfc, solid(296, 128, [0, 0, 0]));
    expect(tag.record()).toMatchObject({ contentMode: 24 });
    await clock.advance(130_000);
    expect(tag.nfc).toBe(url);
    expect(tag.nfcWrites).toBe(1);
    expect(tag.imageWrites).toBe(2);
  });
});
