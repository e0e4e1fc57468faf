/**
 * A large product export (issue 11 item 3, "any other costly call"): the worst event-loop stall
 * (what any other request would have waited) while a store's 200,000 products are exported as
 * XLSX, 1 and 3 exports at once, through the app in this process (SQLite in memory). Not a test.
 *
 *   node --import tsx bench/export.bench.ts [--products 200000] [--repeat 3]
 *
 * Run it at two commits to compare (the figures in docs/PERFORMANCE.md name them).
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/infra/config';
import { openDatabase } from '../apps/server/src/infra/db/database';
import { migrateToLatest } from '../apps/server/src/infra/db/migrate';
import { buildShop } from '../apps/server/src/test/business';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const PRODUCTS = Number(arg('products') ?? 200_000);
const REPEAT = Number(arg('repeat') ?? 3);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

const config = testConfig();
const database = openDatabase(config.databaseUrl);
await migrateToLatest(database);
const app = await buildApp(config, database);
await app.ready();
const shop = await buildShop(app);
const now = Date.now();
for (let at = 0; at < PRODUCTS; at += 500) {
  await app.services.db
    .insertInto('products')
    .values(
      Array.from({ length: Math.min(500, PRODUCTS - at) }, (_, i) => ({
        tenant_id: shop.tenant.id,
        store_id: shop.store.id,
        barcode: String(6_900_000_000_000 + at + i),
        qrcode: '',
        name: `商品 Product ${at + i}`,
        price_cents: 1000 + ((at + i) % 5000),
        original_price_cents: null,
        unit: '个',
        spec: '500g',
        origin: '山东',
        grade: 'A',
        custom: '{}',
        price_changes: 0,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

/** Exports `copies` at once; answers the worst stall, the wall time and the answers' sizes. */
async function measure(copies: number) {
  let last = performance.now();
  let gap = 0;
  const sampler = setInterval(() => {
    const t = performance.now();
    gap = Math.max(gap, t - last);
    last = t;
  }, 5);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  await new Promise((r) => setTimeout(r, 50));
  delay.reset();
  gap = 0;
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: copies }, async () => {
      await new Promise((r) => setImmediate(r));
      const res = await app.inject({
        method: 'POST',
        url: '/api/mgr/product/export',
        headers: { token: shop.tokens.clerk, 'accept-language': 'en' },
        payload: {},
      });
      return res.headers['content-type']?.toString().includes('json')
        ? `refused ${res.json().code}`
        : `${(res.rawPayload.length / 1e6).toFixed(1)} MB`;
    }),
  );
  const ms = performance.now() - started;
  await new Promise((r) => setTimeout(r, 20));
  delay.disable();
  clearInterval(sampler);
  return { stall: Math.max(delay.max / 1e6, gap), ms, answers };
}

console.log(
  `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; ${PRODUCTS} products`,
);
console.log('| exports at once | worst stall, median (ms) | wall, median (ms) | stalls of the runs (ms) | answers |');
console.log('|---|---|---|---|---|');
for (const copies of [1, 3]) {
  const runs = [];
  for (let i = 0; i < REPEAT; i++) runs.push(await measure(copies));
  console.log(
    `| ${copies} | ${median(runs.map((r) => r.stall)).toFixed(0)} | ${median(runs.map((r) => r.ms)).toFixed(0)} | ${runs.map((r) => r.stall.toFixed(0)).join(', ')} | ${runs[0]?.answers.join(', ')} |`,
  );
}
console.log(
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await app.close();
