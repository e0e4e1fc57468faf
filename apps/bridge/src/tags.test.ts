import { EMU_TAG_TYPES, emuTags } from '@esl/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { OeplAccessPoint } from './oepl/ap';
import { type Rig, startRig } from './test/harness';
import { differingPixels, testImage } from './test/images';

// Tags and health: inventory past the 255-tag wall, the WebSocket held with stopsleep=0 and
// reconnected when lost, LED patterns, button wake-ups, learned tag types, the radio alarm.

let rig: Rig | null = null;
afterEach(async () => {
  await rig?.stop();
  rig = null;
});

const reported = (r: Rig) => new Set(r.of('tags').flatMap((m) => m.tags.map((e) => e.id)));

describe('bridge → emulated OEPL AP: tags and health', () => {
  it('300 tags on one AP (past the 255 wall) are all known, reported and served, without offset paging', async () => {
    const tags = emuTags(300, [0x31]);
    rig = await startRig({ tags });
    const r = rig;
    await r.until(() => reported(r).size === 300, '300 tags reported', 5 * 60_000, 1000);
    expect(r.emu.server.pagesAsked).toEqual([]);
    const last = tags[299].mac;
    const image = testImage(296, 128, 'bwr', 3);
    const ver = await r.sendImage(last, image);
    await r.until(() => r.results().length === 1, 'served');
    expect(r.results()[0]).toMatchObject({ code: 'ok', tag: last, ver });
    const screen = r.emu.ap.tags.get(last)?.screen;
    const type = EMU_TAG_TYPES.get(0x31);
    if (!screen || !type) throw new Error('nothing shown');
    expect(differingPixels(image, screen, type)).toBe(0);
  });

  it('holds the WebSocket with stopsleep=0 (tags sleep to maxsleep) and reconnects when it is lost', async () => {
    rig = await startRig({ tags: emuTags(2, [0x31]), maxsleep: 5 });
    const r = rig;
    expect(r.emu.ap.config.stopsleep).toBe(0);
    expect(r.emu.ap.wsClients).toBe(1);
    await r.advance(60_000, 1000);
    for (const t of r.emu.ap.tags.values()) expect(t.nextcheckin - t.lastseen).toBe(300);
    r.emu.server.dropSockets();
    await r.until(() => r.emu.ap.wsClients === 0, 'dropped', 10_000, 50);
    await r.until(() => r.emu.ap.wsClients === 1, 'reconnected', 60_000, 250);
    const mac = emuTags(1)[0].mac;
    await r.sendImage(mac, testImage(296, 128, 'bwr', 4));
    await r.until(() => r.results().length === 1, 'served after the reconnect');
    expect(r.results()[0].code).toBe('ok');
  });

  it('flashes the LED with our pattern as the AP’s 12 bytes', async () => {
    rig = await startRig({ tags: emuTags(1, [0x31]) });
    const r = rig;
    const mac = emuTags(1)[0].mac;
    await r.until(() => r.bridge.aps[0].tagEntries().length === 1, 'known');
    const led = { colour: 'green' as const, onMs: 200, offMs: 300, count: 3, repeat: 2 };
    await r.send('jobs', { v: 1, jobs: [{ id: 'l1', rev: 1, att: 1, kind: 'led', tag: mac, prio: 0, ttlS: 60, led }] });
    await r.until(() => r.results().length === 1, 'led result', 60_000);
    expect(r.results()[0]).toMatchObject({ id: 'l1', code: 'ok' });
    // mode 1 + 0.5 s, green in RGB332, 3 flashes at 0.2 s, 0.3 s apart; phases 2 and 3 dark; 2 repeats.
    expect(r.emu.ap.tags.get(mac)?.flashes).toEqual(['151C32030000000000000200']);
  });

  it('a button press reaches the server as a tag report with reason button', async () => {
    rig = await startRig({ tags: emuTags(1, [0x30]) });
    const r = rig;
    const mac = emuTags(1)[0].mac;
    await r.until(() => reported(r).has(mac), 'reported');
    r.emu.ap.pressButton(mac);
    await r.until(
      () => r.of('tags').some((m) => m.tags.some((e) => e.id === mac && e.reason === 'button')),
      'button report',
      120_000,
    );
  });

  it('learns a tag type the catalogue lacks from the AP, tells the server, and reports its tags by the key', async () => {
    rig = await startRig({ tags: [{ mac: '0000EE0000000009', hwType: 0x35 }, ...emuTags(1, [0x31])] });
    const r = rig;
    const ap = r.bridge.aps[0];
    if (!(ap instanceof OeplAccessPoint)) throw new Error('an OEPL AP');
    await r.until(() => ap.types.has(0x35), 'type read');
    const m = ap.types.get(0x35);
    expect(m?.model).toBeNull();
    const learned = {
      key: 'oepl-35',
      name: 'Emulated 1.3" BWR',
      w: 144,
      h: 200,
      colours: ['white', 'black', 'red'],
      colourType: 'bwr',
      led: true,
      button: true,
    };
    expect(m?.learned).toMatchObject(learned);
    // `up/models` (checked against its schema by the rig) before the tag's report names the key.
    await r.until(() => r.of('models').some((x) => x.models.some((y) => y.key === 'oepl-35')), 'models sent');
    expect(r.of('models').at(-1)?.models).toEqual([
      expect.objectContaining({ ...learned, source: expect.any(String) }),
    ]);
    const plain = emuTags(1, [0x31])[0].mac;
    await r.until(
      () => reported(r).has('0000EE0000000009') && reported(r).has(plain),
      'both tags reported',
      120_000,
      1000,
    );
    const entry = r
      .of('tags')
      .flatMap((x) => x.tags)
      .find((e) => e.id === '0000EE0000000009');
    expect(entry?.hw).toBe('oepl-35');
    // The catalogue's tag keeps its catalogue code.
    const other = r
      .of('tags')
      .flatMap((x) => x.tags)
      .find((e) => e.id === plain);
    expect(other?.hw).toMatch(/^[0-9A-F]{2}$/);
    // A reconnect's welcome sends the models again.
    const before = r.of('models').length;
    r.bridge.link.welcome({ v: 1, connId: r.bridge.link.connId, time: r.clock.now(), cfgRev: 0 });
    await r.until(() => r.of('models').length > before, 'models after welcome', 10_000, 50);
  });

  it('raises the radio alarm when every tag goes silent behind a healthy AP', async () => {
    rig = await startRig({ tags: emuTags(3, [0x31]), oepl: { staleMs: 3 * 60_000 } });
    const r = rig;
    await r.advance(4 * 60_000, 1000);
    expect(r.bridge.aps[0].health().alarms).toEqual([]);
    r.emu.ap.radioDead = true;
    await r.until(() => r.bridge.aps[0].health().alarms.length === 1, 'alarm', 10 * 60_000, 1000);
    expect(r.bridge.aps[0].health().online).toBe(true);
    // The heartbeat carries the alarm and the AP's state to the server.
    await r.until(
      () => (r.of('heartbeat').at(-1)?.alarms ?? []).includes('radioSilent'),
      'heartbeat alarm',
      3 * 60_000,
    );
    expect(r.of('heartbeat').at(-1)?.ap).toMatchObject({ runstate: 2, tags: 3 });
  });

  it('answers a roll call from the tags it heard', async () => {
    rig = await startRig({ tags: emuTags(2, [0x31]) });
    const r = rig;
    await r.advance(45_000, 500);
    await r.send('jobs', { v: 1, jobs: [{ id: 'rc', rev: 1, att: 1, kind: 'rollcall', prio: 0, ttlS: 60 }] });
    await r.until(() => r.results().length === 2, 'roll call', 10_000);
    expect(r.results().map((x) => x.present)).toEqual([true, true]);
  });
});

describe('bridge → emulated OEPL AP: the command window', () => {
  it('answers status and scan, and reboots the AP on reboot (then reconnects)', async () => {
    rig = await startRig({ tags: emuTags(2, [0x31]) });
    const r = rig;
    await r.advance(45_000, 500);
    const out = () =>
      r
        .of('cmdOutput')
        .map((m) => m.out)
        .join('');
    await r.send('cmd', { v: 1, session: 's1', seq: 0, open: { ttlS: 600 }, line: 'status' });
    await r.until(() => out().includes('"online":true'), 'status', 5000, 50);
    await r.send('cmd', { v: 1, session: 's1', seq: 1, line: 'scan' });
    await r.until(() => out().includes(`${emuTags(1)[0].mac} rssi`), 'scan', 5000, 50);
    await r.send('cmd', { v: 1, session: 's1', seq: 2, line: 'reboot' });
    await r.until(() => r.emu.ap.runstate !== 2, 'rebooting', 5000, 50);
    await r.until(() => r.emu.ap.wsClients === 1 && r.bridge.aps[0].health().online, 'back', 60_000, 500);
  });
});
