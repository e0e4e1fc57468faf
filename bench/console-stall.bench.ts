/**
 * Issue 25 item 5, "uploads stop everyone": how long a console call waits while the server takes
 * costly work at once — an over-size upload (65 MB to the product import), a 100,000-row CSV
 * import, a 600-label re-render of a store — against the same call on the unloaded server, in one
 * run. Prints the console call's latency (median, p99, max) for each load alone and all together,
 * and the worst event-loop stall of the server process. Not a test.
 *
 *   node --import tsx bench/console-stall.bench.ts [--only upload|import|render|all] [--rows 100000]
 *
 * The server runs in this process over real HTTP (SQLite in a temporary file), so what a browser
 * would see is measured, including body parsing and the render pool.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../apps/server/src/app';
import { renderWorkersFromEnv, testConfig } from '../apps/server/src/infra/config';
import { openDatabase } from '../apps/server/src/infra/db/database';
import { migrateToLatest } from '../apps/server/src/infra/db/migrate';
import { buildShop, buildStation, insertBoundTags } from '../apps/server/src/test/business';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const ONLY = arg('only');
const ROWS = Number(arg('rows') ?? 100_000);
const TAGS = Number(arg('tags') ?? 600);

const dir = mkdtempSync(join(tmpdir(), 'stall-'));
// As in production: delivery ticks every second and labels render in the worker pool.
const config = {
  ...testConfig(),
  databaseUrl: `sqlite:${join(dir, 'esl.db')}`,
  deliveryTickMs: 1000,
  mqtt: { mode: 'embedded' as const, host: '127.0.0.1', port: 0 },
  renderWorkers: renderWorkersFromEnv(process.env),
};
const database = openDatabase(config.databaseUrl);
await migrateToLatest(database);
const app = await buildApp(config, database);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no port');
const port = address.port;
const shop = await buildShop(app);
const token = shop.tokens.admin;
const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
const station = await buildStation(app, at);
await insertBoundTags(app.services.db, at, TAGS, { hwPrefix: 'B', priceCents: (i) => 100 + i, now: Date.now() });
await app.services.db.updateTable('tags').set({ station_id: station.id }).where('store_id', '=', at.storeId).execute();

interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** One HTTP call; `body` may be a Buffer or a function writing a stream of chunks. */
function call(
  path: string,
  body: Buffer | ((write: (b: Buffer) => Promise<void>) => Promise<void>),
  headers: Record<string, string> = {},
): Promise<Answer> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `/api${path}`,
        method: 'POST',
        headers: { token, 'accept-language': 'en', 'content-type': 'application/json', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            ms: performance.now() - start,
          }),
        );
      },
    );
    req.on('error', (err) => resolve({ status: 0, body: String(err), ms: performance.now() - start }));
    if (Buffer.isBuffer(body)) {
      req.end(body);
      return;
    }
    body(
      (b) =>
        new Promise<void>((ok) => {
          if (req.destroyed) return ok();
          if (req.write(b)) ok();
          else req.once('drain', ok);
        }),
    )
      .then(() => req.end())
      .catch(reject);
  });
}

function multipart(filename: string, size: number, fill: (at: number, chunk: Buffer) => void) {
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + size + tail.length;
  const write = async (out: (b: Buffer) => Promise<void>) => {
    await out(head);
    for (let at = 0; at < size; at += 1 << 20) {
      const chunk = Buffer.alloc(Math.min(1 << 20, size - at));
      fill(at, chunk);
      await out(chunk);
    }
    await out(tail);
  };
  return {
    write,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) },
  };
}

const loads: Record<string, () => Promise<string>> = {
  /** 65 MB to the product import, over its 64 MB limit. */
  upload: async () => {
    const body = multipart('big.csv', 65 * 1024 * 1024, (_, c) => c.fill(0x61));
    const a = await call('/mgr/product/import', body.write, body.headers);
    return `upload ${a.status} ${a.body.slice(0, 80)} in ${a.ms.toFixed(0)} ms`;
  },
  /** A CSV of ROWS new products. */
  import: async () => {
    const lines = ['条码,名称,价格'];
    for (let i = 0; i < ROWS; i++) lines.push(`${7_000_000_000_000 + i},Product ${i},${(i % 500) + 1}.50`);
    const bytes = Buffer.from(lines.join('\n'));
    const body = multipart('products.csv', bytes.length, (at, c) => bytes.copy(c, 0, at, at + c.length));
    const a = await call('/mgr/product/import', body.write, body.headers);
    return `import ${a.status} ${a.body.slice(0, 120)} in ${a.ms.toFixed(0)} ms`;
  },
  /** Every tag of the store re-rendered and sent (refresh all). */
  render: async () => {
    const a = await call('/mgr/tag/flashallesl', Buffer.from('{}'));
    const start = performance.now();
    // The refresh answers at once; the renders run after it: wait until the pending count is 0.
    for (;;) {
      const rows = await app.services.db
        .selectFrom('device_tasks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('state', '=', 'render')
        .executeTakeFirst();
      if (Number(rows?.n ?? 0) === 0 || performance.now() - start > 120_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return `render ${a.status} ${a.body.slice(0, 60)}; renders done after ${(performance.now() - start).toFixed(0)} ms`;
  },
};

/** The console call measured: the tag list's first page, as the tags page asks it. */
const probe = () => call('/mgr/tag/list', Buffer.from(JSON.stringify({ page: 1, limit: 20 })));

async function probeWhile(work: Promise<unknown> | null, count: number): Promise<number[]> {
  const times: number[] = [];
  let done = false;
  work?.finally(() => {
    done = true;
  });
  for (let i = 0; i < count && !(work && done); i++) {
    const a = await probe();
    if (a.status !== 200) throw new Error(`probe answered ${a.status}: ${a.body.slice(0, 200)}`);
    times.push(a.ms);
    await new Promise((r) => setTimeout(r, 20));
  }
  await work;
  return times;
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN;
};
const line = (name: string, xs: number[], stall: number) =>
  console.log(
    `${name.padEnd(10)} n=${String(xs.length).padStart(4)} median ${q(xs, 0.5).toFixed(1).padStart(7)} ms  p99 ${q(xs, 0.99).toFixed(1).padStart(7)} ms  max ${Math.max(
      ...xs,
    )
      .toFixed(1)
      .padStart(7)} ms  loop stall max ${stall.toFixed(0)} ms`,
  );

console.log(
  `${cpus().length} × ${cpus()[0]?.model}, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
await probeWhile(null, 20); // warm
loop.reset();
line('baseline', await probeWhile(null, 100), loop.max / 1e6);
for (const name of ONLY ? (ONLY === 'all' ? [] : [ONLY]) : Object.keys(loads)) {
  loop.reset();
  const load = loads[name];
  if (!load) throw new Error(`no load ${name}`);
  let said = '';
  const times = await probeWhile(
    load().then((s) => {
      said = s;
    }),
    100_000,
  );
  line(name, times, loop.max / 1e6);
  console.log(`           ${said}`);
}
if (!ONLY || ONLY === 'all') {
  loop.reset();
  const said: string[] = [];
  const times = await probeWhile(Promise.all(Object.values(loads).map((l) => l().then((s) => said.push(s)))), 100_000);
  line('all', times, loop.max / 1e6);
  for (const s of said) console.log(`           ${s}`);
}
loop.reset();
line('after', await probeWhile(null, 100), loop.max / 1e6);
await app.close();
rmSync(dir, { recursive: true, force: true });
