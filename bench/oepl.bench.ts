/**
 * OpenEPaperLink figures of issue 24 (docs/OEPL.md, "Figures"). Not a test.
 *
 *   node --import tsx bench/oepl.bench.ts [--tags 300] [--changes 50] [--only latency|radio]
 *
 * The bridge (apps/bridge) between an in-process broker whose other client plays the server and
 * the emulated AP (apps/simulator/src/oepl), all on one manual virtual clock (@esl/bridge/testing).
 *
 * 1. Radio utilisation while work waits, full refresh of `--tags` tags (296×128 BWR, check-ins every
 *    40 s): the AP's radio busy time ÷ the time from the jobs to the last tag shown. The bridge as it
 *    runs (one upload per tag, up to 16 waiting at the AP) beside the way Home Assistant drives an AP
 *    (one upload at a time, 1 s pause after each: `maxQueued` 1, `paceMs` 1000).
 * 2. Price change → JPEG uploaded to the AP, real milliseconds, `--changes` changes one at a time:
 *    from the job's publish until the AP's `/imgupload` has the whole JPEG (the bridge's decode, palette,
 *    JPEG and HTTP; not the emulated AP's own decoding after it, which runs in this same process).
 *    Bytes per upload.
 */
import { parseArgs } from 'node:util';
import { type Rig, startRig } from '@esl/bridge/testing';
import { COLOUR_SETS, type IndexImage } from '@esl/labels';
import { emuTags } from '@esl/simulator';

const { values } = parseArgs({
  options: {
    tags: { type: 'string', default: '300' },
    changes: { type: 'string', default: '50' },
    /** `latency` or `radio`: only that figure. */
    only: { type: 'string' },
  },
});
const TAGS = Number(values.tags);
const CHANGES = Number(values.changes);

function priceImage(seed: number): IndexImage {
  const w = 296;
  const h = 128;
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const digit = Math.floor(x / 40) + seed;
      data[y * w + x] = y > 30 && y < 100 && x % 40 < 30 && (x + y + digit) % 7 < 4 ? (digit % 3 === 0 ? 2 : 1) : 0;
    }
  }
  return { width: w, height: h, colourType: 'bwr', data };
}

async function fullRefresh(label: string, oepl: { maxQueued?: number; paceMs?: number }): Promise<void> {
  const tags = emuTags(TAGS, [0x31]);
  const rig: Rig = await startRig({ tags, maxsleep: 0, oepl });
  await rig.until(() => rig.bridge.aps[0].tagEntries().length === TAGS, 'inventory', 10 * 60_000, 1000);
  const startBusy = rig.emu.ap.radio.busyMs;
  const t0 = rig.clock.now();
  for (let i = 0; i < tags.length; i++) await rig.sendImage(tags[i].mac, priceImage(i), { id: `r${i}` });
  await rig.until(() => rig.results().length >= TAGS, 'every tag shown', 24 * 3600_000, 1000);
  const span = rig.clock.now() - t0;
  const busy = rig.emu.ap.radio.busyMs - startBusy;
  const ok = rig.results().filter((r) => r.code === 'ok').length;
  console.log(
    `${label}: ${ok}/${TAGS} shown in ${(span / 1000).toFixed(0)} s virtual; radio busy ${(busy / 1000).toFixed(0)} s` +
      ` → utilisation ${((100 * busy) / span).toFixed(1)} %; uploads ${rig.emu.ap.uploads.length}`,
  );
  await rig.stop();
}

async function latency(): Promise<void> {
  const tags = emuTags(CHANGES, [0x31]);
  const rig = await startRig({ tags, maxsleep: 0 });
  await rig.until(() => rig.bridge.aps[0].tagEntries().length === CHANGES, 'inventory', 10 * 60_000, 1000);
  await rig.advance(6000, 1000); // the AP's first `sys`: the bridge sees it running
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < CHANGES; i++) {
    const before = rig.emu.ap.received;
    const t = performance.now();
    await rig.sendImage(tags[i].mac, priceImage(i), { id: `c${i}` });
    // Real time passes; the virtual clock only moves (50 ms a step) so a retry timer could fire.
    while (rig.emu.ap.received === before) await rig.advance(50, 50);
    ms.push(performance.now() - t);
    // The next change comes once this one is shown (virtual time, not measured): each is timed
    // with the AP's queue empty, not behind the uploads still waiting for their tags' check-ins.
    await rig.until(() => rig.results().length > i, `change ${i} shown`, 10 * 60_000, 1000);
  }
  for (const u of rig.emu.ap.uploads) bytes += u.bytes;
  ms.sort((a, b) => a - b);
  const p = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
  console.log(
    `price change → JPEG at the AP (${CHANGES} changes, real ms): p50 ${p(0.5)}, p99 ${p(0.99)}, max ${p(1)}` +
      `; ${Math.round(bytes / CHANGES)} bytes per upload (296×128 BWR, ${COLOUR_SETS.bwr.length} inks)`,
  );
  await rig.stop();
}

console.log(
  `load average ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} on ${(await import('node:os')).cpus().length} cores`,
);
if (values.only !== 'radio') await latency();
if (values.only !== 'latency') {
  await fullRefresh('bridge (one per tag, ≤16 waiting at the AP)', {});
  await fullRefresh('Home Assistant way (one at a time, 1 s pause)', { maxQueued: 1, paceMs: 1000 });
}
process.exit(0);
