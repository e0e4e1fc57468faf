// Labels rendered + quantised + packed + compressed per second on one core, and bytes per label.
// Run: node --import tsx bench/labels.bench.ts   (figures go to docs/PERFORMANCE.md, "Labels")
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { designSize, drawTemplate, encodeTagImage, quantise, renderForTag, type TemplateDocument } from '@esl/labels';
import { nodeCanvasFactory, nodeDeflate, nodeSha256, renderTagBatch } from '@esl/labels/node';
import { wasmKernel } from '../packages/labels/src/kernel';
import { priceLabel } from '../packages/labels/test/fixtures';
import { priceProducts } from './products';

const RUNS = 7;
/** 6,000 distinct products: more than the symbol caches hold (4,096), so in "cold" runs every label encodes its codes afresh. */
const products = priceProducts(6000);

const canvas = nodeCanvasFactory();
const env = { canvas, deflate: nodeDeflate, sha256: nodeSha256 };
/** CPU time of this process (user + system) in ms: one core's work, whatever else the machine runs. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * `cold`: products cycle through all 6,000, so every barcode and QR code is encoded afresh (a
 * first render of a whole store). `warm`: the same 200 products over and over, their symbols
 * cached (re-rendering a store after price changes).
 */
async function bench(
  label: string,
  doc: TemplateDocument,
  perRun: number,
  mode: 'cold' | 'warm',
  loop: 'batch' | 'sync' = 'batch',
) {
  const pool = mode === 'cold' ? products : products.slice(0, 200);
  const padding = { wext: (8 - (doc.size.w % 8)) % 8, hexit: 0 };
  // Warm up the JIT, the font cache and the canvas.
  for (let i = 0; i < 50; i++) renderForTag(doc, pool[i % pool.length], env, padding);
  await nextTurn();

  const rates: number[] = [];
  const wallRates: number[] = [];
  let bytes = 0;
  let raw = 0;
  const rssBefore = process.memoryUsage.rss();
  let rssPeak = rssBefore;
  for (let run = 0; run < RUNS; run++) {
    const jobs = Array.from({ length: perRun }, (_, i) => ({
      doc,
      data: pool[(run * perRun + i) % pool.length],
      padding,
    }));
    const count = (tag: { bytes: Uint8Array; packedLength: number }) => {
      if (run === 0) {
        bytes += tag.bytes.length;
        raw += tag.packedLength;
      }
    };
    const start = performance.now();
    const cpuStart = cpuMs();
    if (loop === 'batch') {
      // As the server renders many labels: renderTagBatch, which lets the event loop turn.
      await renderTagBatch(jobs, ({ tag }) => count(tag), env);
    } else {
      for (const job of jobs) count(renderForTag(job.doc, job.data, env, job.padding).tag);
    }
    rates.push((perRun * 1000) / (cpuMs() - cpuStart));
    wallRates.push((perRun * 1000) / (performance.now() - start));
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    await nextTurn();
  }

  // Where the time goes, for one median-ish pass.
  const { w, h } = designSize(doc);
  const surface = canvas.createCanvas(w, h);
  const ctx = surface.getContext('2d');
  if (!ctx) throw new Error('no canvas');
  const stages = { draw: 0, read: 0, quantise: 0, encode: 0 };
  for (let i = 0; i < perRun; i++) {
    let t = cpuMs();
    drawTemplate(ctx, doc, pool[i % pool.length]);
    stages.draw += cpuMs() - t;
    t = cpuMs();
    // As rasterise does: the node canvas's one-copy read, else getImageData.
    const rgba = surface.readPixels
      ? { width: w, height: h, data: surface.readPixels() }
      : ctx.getImageData(0, 0, w, h);
    stages.read += cpuMs() - t;
    t = cpuMs();
    const image = quantise(rgba, doc.colourType, doc.dither);
    stages.quantise += cpuMs() - t;
    t = cpuMs();
    encodeTagImage(image, padding, env);
    stages.encode += cpuMs() - t;
    if (i % 32 === 31) await nextTurn();
  }
  const us = (ms: number) => `${Math.round((ms * 1000) / perRun)} µs`;
  console.log(
    `${label}, ${mode} symbols${loop === 'sync' ? ', synchronous loop (no event-loop turns)' : ''}: ${Math.round(median(rates))} labels per CPU-second (median of ${RUNS} runs of ${perRun}; min ${Math.round(Math.min(...rates))}, max ${Math.round(Math.max(...rates))}); wall clock ${Math.round(median(wallRates))}/s`,
  );
  console.log(
    `  per label: draw ${us(stages.draw)}, read pixels ${us(stages.read)}, quantise ${us(stages.quantise)}, pack+deflate+hash ${us(stages.encode)}`,
  );
  console.log(
    `  resident memory: ${Math.round(rssBefore / 2 ** 20)} MB before, ${Math.round(rssPeak / 2 ** 20)} MB at most after a run`,
  );
  console.log(
    `  bytes: ${Math.round(bytes / perRun)} compressed (header included) vs ${Math.round(raw / perRun)} raw planes = ${(raw / bytes).toFixed(1)}× smaller`,
  );
}

console.log(
  `machine: ${cpus()[0]?.model ?? 'unknown cpu'}, nproc ${cpus().length}, node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  `quantise (none) and bit-planes: ${wasmKernel() ? 'WebAssembly kernel' : 'JavaScript loops (no WebAssembly)'}; deflate: node:zlib (nodeDeflate)`,
);
// Calibration: how fast this core is right now. An idle modern core sums 1M words in ~0.3–0.5 ms;
// on a shared, loaded machine every figure below scales with this one.
{
  const words = new Uint32Array(1 << 20).map((_, i) => i);
  let sum = 0;
  const times: number[] = [];
  for (let round = 0; round < 21; round++) {
    const start = cpuMs();
    for (let i = 0; i < words.length; i++) sum = (sum + words[i]) | 0;
    times.push(cpuMs() - start);
  }
  console.log(`calibration: summing 1M 32-bit words takes ${median(times).toFixed(2)} ms CPU (checksum ${sum & 0xff})`);
}

const small = priceLabel(296, 152, 'bwr', { model: '0A' });
const large = priceLabel(800, 480, 'bwr', { model: '28' });
await bench('296×152 black/white/red price label', small, 1500, 'warm');
await bench('296×152 black/white/red price label', small, 1500, 'cold');
await bench('800×480 black/white/red price label', large, 200, 'warm');
await bench('800×480 black/white/red price label', large, 200, 'cold');
// The same labels without renderTagBatch: a plain loop never lets Node free the canvas's pixel buffers.
await bench('296×152 black/white/red price label', small, 1500, 'warm', 'sync');
