/**
 * Issue 25 item 5, "uploads stop everyone": how long a console call waits while the server takes
 * costly work — an over-size upload (65 MB to the product import), a 100,000-row CSV import, a
 * 600-label re-render of a store — each alone and all at once, against the same call on the
 * unloaded server, in one run. Prints the console call's latency (median, p99, max) and the
 * server's worst event-loop stall for each. Not a test (api/console-under-load.test.ts is).
 *
 *   node --import tsx bench/console-stall.bench.ts [--only upload|import|render|all] [--rows 100000]
 *     [--tags 600] [--database sqlite|postgres]
 *
 * The server runs in this process over real HTTP (SQLite in a temporary file, or a new PostgreSQL
 * database on 127.0.0.1:5432), with the delivery engine ticking and labels drawn in the render pool
 * as in production; the work generators are apps/server/src/test/loads.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../apps/server/src/app';
import { renderWorkersFromEnv, testConfig } from '../apps/server/src/infra/config';
import { openDatabase } from '../apps/server/src/infra/db/database';
import { migrateToLatest } from '../apps/server/src/infra/db/migrate';
import { testDatabases } from '../apps/server/src/test/databases';
import { costlyWork, loadShop, quantile, timeCalls } from '../apps/server/src/test/loads';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const ONLY = arg('only');
const ROWS = Number(arg('rows') ?? 100_000);
const TAGS = Number(arg('tags') ?? 600);
const DATABASE = arg('database') ?? 'sqlite';

const dir = mkdtempSync(join(tmpdir(), 'stall-'));
let databaseUrl = `sqlite:${join(dir, 'esl.db')}`;
let drop = async () => {};
if (DATABASE === 'postgres') {
  const pg = (await testDatabases()).find((d) => d.name === 'postgres');
  if (!pg) throw new Error('no PostgreSQL on 127.0.0.1:5432');
  const created = await pg.create();
  databaseUrl = created.url;
  drop = created.drop;
}
const config = testConfig({
  databaseUrl,
  deliveryTickMs: 1000,
  renderWorkers: renderWorkersFromEnv(process.env),
  mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 },
});
const database = openDatabase(config.databaseUrl);
await migrateToLatest(database);
const app = await buildApp(config, database);
const { port, token } = await loadShop(app, TAGS);
const loads = costlyWork(app, port, token, ROWS);

const line = (name: string, xs: number[], stall: number) =>
  console.log(
    `${name.padEnd(10)} n=${String(xs.length).padStart(4)} median ${quantile(xs, 0.5).toFixed(1).padStart(7)} ms  p99 ${quantile(xs, 0.99).toFixed(1).padStart(7)} ms  max ${Math.max(
      ...xs,
    )
      .toFixed(1)
      .padStart(7)} ms  loop stall max ${stall.toFixed(0)} ms`,
  );

console.log(
  `${DATABASE}; ${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
await timeCalls(port, token, null, 20); // warm
loop.reset();
line('unloaded', await timeCalls(port, token, null, 100), loop.max / 1e6);
const names = (['upload', 'import', 'render'] as const).filter((n) => !ONLY || ONLY === n);
for (const name of ONLY === 'all' ? [] : names) {
  loop.reset();
  let said = '';
  const times = await timeCalls(
    port,
    token,
    loads[name]().then((a) => {
      said = `${a.body.slice(0, 100)} in ${a.ms.toFixed(0)} ms`;
    }),
  );
  line(name, times, loop.max / 1e6);
  console.log(`           ${said}`);
}
if (!ONLY || ONLY === 'all') {
  loop.reset();
  const said: string[] = [];
  const times = await timeCalls(
    port,
    token,
    Promise.all(
      names.map((n) => loads[n]().then((a) => said.push(`${n}: ${a.body.slice(0, 90)} in ${a.ms.toFixed(0)} ms`))),
    ),
  );
  line('all', times, loop.max / 1e6);
  for (const s of said) console.log(`           ${s}`);
}
loop.reset();
line('after', await timeCalls(port, token, null, 100), loop.max / 1e6);
await app.close();
await drop();
rmSync(dir, { recursive: true, force: true });
