/**
 * Import bombs (issue 11 item 3): the largest event-loop stall (monitorEventLoopDelay: what any
 * other request would have waited) and the memory growth while 1 and 6 hostile files are read at
 * once, for the reader before the streaming rewrite and after it, in one run. Not a test.
 *
 *   node --import tsx bench/import.bench.ts [--repeat 3] [--only after]
 *
 * "before" is the reader of commit b97f8b5 (whole-entry inflate, then a scan of everything),
 * copied out of git into bench/results/; "after" is apps/server's. Each measurement runs in a
 * child process of its own, so one does not inherit another's heap; figures are medians.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { manyRowsXlsx, ratioBombXlsx, sharedStringsBombXlsx } from '../apps/server/src/modules/products/import/bombs';

const ROOT = new URL('..', import.meta.url).pathname;
const BEFORE = 'b97f8b5';
const OLD_DIR = join(ROOT, 'bench/results/import-before');
const BOMBS = {
  'rows (2,000,000 rows)': () => manyRowsXlsx(),
  'ratio (~1,000:1)': () => ratioBombXlsx(),
  'shared strings (195 MB)': () => sharedStringsBombXlsx(195),
} as const;
type Bomb = keyof typeof BOMBS;
type Variant = 'before' | 'after';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};

/** One measurement, in this (child) process: prints {stallMs, memMb, ms, outcome} as JSON. */
async function measure(variant: Variant, bomb: Bomb, copies: number): Promise<void> {
  const file = BOMBS[bomb]();
  type Reader = (bytes: Buffer) => unknown;
  const read: Reader =
    variant === 'after'
      ? (await import('../apps/server/src/modules/products/import/xlsx')).readXlsx
      : ((await import(join(OLD_DIR, 'xlsx.ts'))) as { readXlsx: Reader }).readXlsx;
  const rss = () => process.memoryUsage().rss;
  const base = rss();
  let peak = base;
  // The same figure measured by hand: the longest gap between two ticks of a 5 ms timer.
  let last = performance.now();
  let gap = 0;
  const sampler = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
    peak = Math.max(peak, rss());
  }, 5);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  // The monitor records from its second tick on: let it tick before the work starts.
  await new Promise((r) => setTimeout(r, 50));
  delay.reset();
  gap = 0;
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: copies }, async () => {
      // Each upload arrives on its own turn, as requests do.
      await new Promise((r) => setImmediate(r));
      try {
        const rows = await read(file);
        return `read ${(rows as unknown[]).length} rows`;
      } catch (err) {
        return `refused: ${(err as Error).message}`;
      }
    }),
  );
  const ms = performance.now() - started;
  // The delay of a blocked loop is recorded when the monitor's timer finally runs: give it the turn.
  await new Promise((r) => setTimeout(r, 20));
  delay.disable();
  clearInterval(sampler);
  peak = Math.max(peak, rss());
  console.log(
    JSON.stringify({
      stallMs: Math.max(delay.max / 1e6, gap),
      memMb: (peak - base) / 1024 / 1024,
      ms,
      outcome: outcomes[0],
    }),
  );
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const child = process.argv.indexOf('--child');
  if (child > 0) {
    const [variant, bomb, copies] = process.argv.slice(child + 1);
    await measure(variant as Variant, bomb as Bomb, Number(copies));
    return;
  }
  mkdirSync(OLD_DIR, { recursive: true });
  for (const name of ['xlsx.ts', 'zip.ts', 'csv.ts']) {
    const text = execFileSync('git', ['show', `${BEFORE}:apps/server/src/modules/products/import/${name}`], {
      cwd: ROOT,
    });
    writeFileSync(join(OLD_DIR, name), text);
  }
  const repeat = Number(arg('repeat') ?? 3);
  const only = arg('only');
  const variants: Variant[] = only ? [only as Variant] : ['before', 'after'];
  console.log(
    `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB`,
  );
  console.log('| bomb | imports at once | reader | worst stall (ms) | memory growth (MB) | wall (ms) | outcome |');
  console.log('|---|---|---|---|---|---|---|');
  for (const bomb of Object.keys(BOMBS) as Bomb[]) {
    for (const copies of [1, 6]) {
      const stalls: Record<string, number> = {};
      for (const variant of variants) {
        const runs = Array.from({ length: repeat }, () => {
          const out = spawnSync(
            process.execPath,
            ['--import', 'tsx', join(ROOT, 'bench/import.bench.ts'), '--child', variant, bomb, String(copies)],
            { encoding: 'utf8', maxBuffer: 1 << 20 },
          );
          const line = out.stdout.trim().split('\n').pop() ?? '';
          try {
            return JSON.parse(line) as { stallMs: number; memMb: number; ms: number; outcome: string };
          } catch {
            return {
              stallMs: Number.NaN,
              memMb: Number.NaN,
              ms: Number.NaN,
              outcome: `crashed: ${out.stderr.slice(-200)}`,
            };
          }
        });
        const stall = median(runs.map((r) => r.stallMs));
        stalls[variant] = stall;
        console.log(
          `| ${bomb} | ${copies} | ${variant} | ${stall.toFixed(0)} | ${median(runs.map((r) => r.memMb)).toFixed(0)} | ${median(runs.map((r) => r.ms)).toFixed(0)} | ${runs[0]?.outcome.slice(0, 60)} |`,
        );
      }
      if (stalls.before !== undefined && stalls.after !== undefined) {
        console.log(
          `| ${bomb} | ${copies} | stall before ÷ after | ${(stalls.before / stalls.after).toFixed(1)}× | | | |`,
        );
      }
    }
  }
}

await main();
