// What shaping (HarfBuzz, issue 28 item 1) costs the label rate: the 296×152 black/white/red price
// label with a Chinese name, labels per CPU-second with the shaper not loaded ("before") and
// loaded ("after"), alternated round by round so the machine's drift falls on both alike; beside
// them the same label with Thai and Arabic names, which go through the shaper.
// Run: node --import tsx bench/shaping.bench.ts   (figures go to docs/PERFORMANCE.md, "Labels")
import { cpus, loadavg } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type LabelData, renderForTag, type TemplateDocument } from '@esl/labels';
import { loadShaper, nodeCanvasFactory, nodeDeflate, nodeSha256, prepareTexts, registerFonts } from '@esl/labels/node';
import { priceLabel } from '../packages/labels/test/fixtures';
import { CHINESE_NAMES, priceProducts } from './products';

const ROUNDS = 9;
const PER_ROUND = 600;

const SHAPED = ['ส้มโอขาวน้ำผึ้ง', 'มะม่วงน้ำดอกไม้สีทอง', 'تفاح أحمر 500 غرام', 'حليب طازج كامل الدسم'];

const env = { canvas: nodeCanvasFactory(), deflate: nodeDeflate, sha256: nodeSha256 };
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Labels per CPU-second of one round (after a warm-up of the same labels). */
async function round(doc: TemplateDocument, pool: readonly LabelData[]): Promise<number> {
  const padding = { wext: (8 - (doc.size.w % 8)) % 8, hexit: 0 };
  for (let i = 0; i < 30; i++) renderForTag(doc, pool[i % pool.length], env, padding);
  await nextTurn();
  const start = cpuMs();
  for (let i = 0; i < PER_ROUND; i++) {
    renderForTag(doc, pool[i % pool.length], env, padding);
    if (i % 64 === 63) await nextTurn();
  }
  return (PER_ROUND * 1000) / (cpuMs() - start);
}

console.log(
  `machine: ${cpus()[0]?.model ?? 'unknown cpu'}, nproc ${cpus().length}, node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const doc = priceLabel(296, 152, 'bwr', { model: '0A' });
const chinese = priceProducts(200, CHINESE_NAMES);
const shaped = priceProducts(200, SHAPED);
await prepareTexts(SHAPED);
const library = registerFonts();
const shaper = library.shaper;
if (!shaper) throw new Error('the shaper did not load');
await loadShaper();

const before: number[] = [];
const after: number[] = [];
const complex: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  library.shaper = null;
  before.push(await round(doc, chinese));
  library.shaper = shaper;
  after.push(await round(doc, chinese));
  complex.push(await round(doc, shaped));
}
const b = median(before);
const a = median(after);
const ratios = before.map((x, i) => after[i] / x);
console.log(
  `296×152 black/white/red, Chinese names: ${Math.round(b)} labels per CPU-second without the shaper, ${Math.round(a)} with it (medians of ${ROUNDS} alternated rounds of ${PER_ROUND}); after ÷ before per round: median ${median(ratios).toFixed(3)}, min ${Math.min(...ratios).toFixed(3)}, max ${Math.max(...ratios).toFixed(3)}`,
);
console.log(
  `296×152 black/white/red, Thai and Arabic names (shaped): ${Math.round(median(complex))} labels per CPU-second, ${(median(complex) / b).toFixed(2)} × the Chinese label without the shaper`,
);
