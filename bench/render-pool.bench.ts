// Labels per second through the render pool (DELIVERY.md §5.3): in the calling thread against
// worker threads. Not a test.
//
//   node --import tsx bench/render-pool.bench.ts [--labels 1024] [--runs 5] [--workers 1,2]
//
// Each run renders `--labels` labels of the 2.66" demo template (296 × 152, black/white/red) for
// tags of model 0A, with products cycling through 2,000 distinct names, prices and barcodes, as
// one `render()` call (the pool cuts it into parts of ≤ 64 jobs for its workers); wall-clock
// labels per second, median of `--runs` after one warm-up run (which also starts the workers:
// tsx, fonts), and labels per CPU-second of the whole process (worker threads included), which
// shows the pool's own cost on a machine too busy for wall-clock figures. Figures go to docs/PERFORMANCE.md, "Render pool".

import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { TemplateDocument } from '@esl/labels';
import { DEMO_TEMPLATES } from '../apps/server/src/demo/templates';
import { createRenderPool } from '../apps/server/src/infra/render/pool';
import { isRendered, type RenderJob, type RenderPool } from '../apps/server/src/infra/render/types';
import { priceProducts } from './products';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const LABELS = Number(arg('labels', '1024'));
const RUNS = Number(arg('runs', '5'));
const WORKERS = arg('workers', '1,2').split(',').map(Number);

const products = priceProducts(2000);

const demo = DEMO_TEMPLATES.map((t) => TemplateDocument.parse(t.doc)).find((d) => d.size.model === '0A');
if (!demo) throw new Error('no 296 × 152 demo template');
const doc = demo;

let offset = 0;
const jobs = (): RenderJob[] =>
  Array.from({ length: LABELS }, (_, i) => ({
    tenantId: 1,
    tagId: i + 1,
    doc,
    data: products[(offset + i) % products.length],
    model: '0A',
    colour: 'bwr',
  }));

/** CPU time of the whole process, worker threads included (user + system), ms. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(label: string, pool: RenderPool): Promise<number> {
  const rates: number[] = [];
  const cpuRates: number[] = [];
  for (let run = -1; run < RUNS; run++) {
    const batch = jobs();
    offset += LABELS;
    const start = performance.now();
    const cpuStart = cpuMs();
    const out = await pool.render(batch);
    const ms = performance.now() - start;
    if (run >= 0) cpuRates.push((LABELS * 1000) / (cpuMs() - cpuStart));
    const failed = out.filter((o) => !isRendered(o));
    if (failed.length) throw new Error(`${label}: ${failed.length} failed, e.g. ${JSON.stringify(failed[0])}`);
    if (run >= 0) rates.push((LABELS * 1000) / ms);
  }
  await pool.close();
  const m = median(rates);
  console.log(
    `${label.padEnd(22)} ${Math.round(m).toLocaleString('en')} labels/s  (runs: ${rates.map(Math.round).join(', ')}); ` +
      `${Math.round(median(cpuRates)).toLocaleString('en')} per CPU-second`,
  );
  return m;
}

const cpu = cpus();
console.log(
  `render pool: ${LABELS} labels of 296 × 152 bwr per run, median of ${RUNS}; ${cpu.length} × ${cpu[0]?.model}, ` +
    `Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);
const base = await measure('in the calling thread', createRenderPool({ workers: 0 }));
for (const workers of WORKERS) {
  const rate = await measure(`pool, ${workers} worker${workers === 1 ? '' : 's'}`, createRenderPool({ workers }));
  console.log(`${''.padEnd(22)} ×${(rate / base).toFixed(2)} the calling thread`);
}
console.log(
  `load average at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
