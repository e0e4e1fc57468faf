/**
 * Large label previews (issue 11 item 3): the worst wait of a light request (reading the data-key
 * map) while 4 previews of a 4096 × 4096 template are asked for at once, with the previews drawn
 * on the request thread ("before", RENDER_WORKERS=0: what commit f7835a2 did for every preview)
 * and in the app's render pool ("after", RENDER_WORKERS=1). Not a test.
 *
 *   node --import tsx bench/preview.bench.ts [--rounds 5] [--only before|after]
 *
 * The real server runs as a child process (--demo, SQLite, no broker); this process is the
 * clients. Each round: 4 clients of the demo tenant each ask for the large preview, and ask again
 * 20 ms after a "busy" answer (the preview gate draws one large preview per tenant at a time)
 * until each has its picture; meanwhile a probe reads the data-key map back to back. A round's
 * figure is the probe's longest wait; the table shows the median over the rounds, next to the
 * probe's median wait with no previews (the same server, before the rounds).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { ErrorCode } from '@esl/contract';
import { priceLabel } from '@esl/labels/testing';
import { clientDigest } from '../apps/server/src/infra/lib/passwords';
import { startServer } from './server-process';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

type Answer = { code: number; msg: string; data: unknown };

async function post(url: string, body: unknown, token?: string): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Answer;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

/** The large template: a name, a price and a barcode over a 4096 × 4096 panel. */
const BIG = priceLabel({ w: 4096, h: 4096, colourType: 'bwr', barcode: true });

interface Probe {
  stop(): Promise<number[]>;
}

/** Reads the data-key map back to back until stopped: each wait, ms. */
function probe(base: string, token: string): Probe {
  const waits: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const answer = await post(`${base}/api/mgr/templ/getdatekeymap`, {}, token);
      if (answer.code !== 0) throw new Error(`probe: ${answer.msg}`);
      waits.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return waits;
    },
  };
}

/** One client's large preview, asked again after a "busy" answer until drawn. */
async function bigPreview(base: string, token: string): Promise<number> {
  let busy = 0;
  for (;;) {
    const answer = await post(`${base}/api/mgr/templ/preview`, { doc: BIG }, token);
    if (answer.code === 0) return busy;
    if (answer.code !== ErrorCode.BUSY || busy > 10_000) throw new Error(`preview: ${answer.msg}`);
    busy++;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function measure(variant: 'before' | 'after', rounds: number) {
  const dir = mkdtempSync(join(tmpdir(), 'esl-preview-bench-'));
  const server = await startServer(
    {
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'esl.db')}`,
      MQTT: 'off',
      SIM: 'off',
      RENDER_WORKERS: variant === 'before' ? '0' : '1',
    },
    [],
    ['--demo'],
  );
  try {
    const base = server.url;
    const login = async (username: string) => {
      const res = await post(`${base}/api/user/login`, { username, password: clientDigest('demo123') });
      if (res.code !== 0) throw new Error(`login ${username}: ${res.msg}`);
      return (res.data as { token: string }).token;
    };
    const editor = await login('editor');
    const admin = await login('admin');
    // Warm up: the renderer's code and fonts, in the worker or here.
    await bigPreview(base, editor);
    const idle = probe(base, admin);
    await new Promise((r) => setTimeout(r, 1000));
    const baseline = median(await idle.stop());
    const worst: number[] = [];
    const medians: number[] = [];
    const walls: number[] = [];
    let busy = 0;
    for (let round = 0; round < rounds; round++) {
      const p = probe(base, admin);
      await new Promise((r) => setTimeout(r, 50));
      const started = performance.now();
      const retries = await Promise.all(Array.from({ length: 4 }, () => bigPreview(base, editor)));
      walls.push(performance.now() - started);
      busy += retries.reduce((a, b) => a + b, 0);
      const waits = await p.stop();
      worst.push(Math.max(...waits));
      medians.push(median(waits));
    }
    return {
      baseline,
      worst: median(worst),
      median: median(medians),
      wall: median(walls),
      busy: busy / rounds,
      all: worst,
    };
  } finally {
    server.child.kill();
    await new Promise((r) => server.child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

const rounds = Number(arg('rounds') ?? 5);
const only = arg('only');
console.log(
  `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  '| previews drawn | probe alone, median (ms) | worst wait during 4 previews, median of rounds (ms) | probe median during (ms) | 4 previews, wall (ms) | busy answers per round | worst waits of the rounds (ms) |',
);
console.log('|---|---|---|---|---|---|---|');
for (const variant of only ? [only as 'before' | 'after'] : (['before', 'after'] as const)) {
  const r = await measure(variant, rounds);
  const where =
    variant === 'before'
      ? 'before: on the request thread (RENDER_WORKERS=0)'
      : 'after: in the render pool (RENDER_WORKERS=1)';
  console.log(
    `| ${where} | ${r.baseline.toFixed(1)} | ${r.worst.toFixed(0)} | ${r.median.toFixed(1)} | ${r.wall.toFixed(0)} | ${r.busy.toFixed(0)} | ${r.all.map((x) => x.toFixed(0)).join(', ')} |`,
  );
}
console.log(
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
