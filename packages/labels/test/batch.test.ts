import { describe, expect, test, vi } from 'vitest';
import type { LabelData } from '../src/model/document';
import {
  BATCH_PIXEL_BYTES,
  nodeCanvasFactory,
  nodeDeflate,
  nodeSha256,
  renderTagBatch,
  renderTagImage,
  type TagJob,
} from '../src/node';
import { renderForTag } from '../src/pipeline';
import { gs1CheckDigit } from '../src/symbols';
import { doc as parseDoc, photoDataUrl, priceLabel } from './fixtures';

vi.setConfig({ testTimeout: 60_000 });

const env = { canvas: nodeCanvasFactory(), deflate: nodeDeflate, sha256: nodeSha256 };
const doc = priceLabel(296, 152, 'bwr', { model: '0A' });
const padding = { wext: 0, hexit: 0 };

const product = (i: number): LabelData => {
  const body = `690${String(100000000 + i * 7919).slice(-9)}`;
  return {
    name: `有机红富士苹果 ${i}`,
    price: 1 + ((i * 37) % 9000) / 100,
    originalPrice: i % 3 === 0 ? 9.99 : null,
    barcode: body + gs1CheckDigit(body),
    qrcode: `https://shop.example.com/p/${body}`,
  };
};
const jobs = (n: number): TagJob[] => Array.from({ length: n }, (_, i) => ({ doc, data: product(i % 50), padding }));

describe('renderTagBatch', () => {
  test('gives each label, in order, exactly as renderForTag does', async () => {
    const batch = jobs(12);
    const seen: { hash: string; bytes: Uint8Array; index: number }[] = [];
    const count = await renderTagBatch(batch, ({ tag }, _job, index) => seen.push({ ...tag, index }), env);
    expect(count).toBe(12);
    expect(seen.map((s) => s.index)).toEqual([...Array(12).keys()]);
    batch.forEach((job, i) => {
      const { tag } = renderForTag(job.doc, job.data, env, job.padding);
      expect(seen[i].hash).toBe(tag.hash);
      expect(Buffer.from(seen[i].bytes).equals(Buffer.from(tag.bytes))).toBe(true);
    });
  });

  test('draws a template image on every label (decoded once for the batch), as a single render does', async () => {
    const { version: _, ...input } = doc;
    const withPhoto = parseDoc({
      ...input,
      elements: [
        ...doc.elements,
        { type: 'image', id: 'photo', x: 200, y: 80, w: 90, h: 60, src: photoDataUrl(), fit: 'stretch' },
      ],
    });
    const batch = Array.from({ length: 4 }, (_, i) => ({ doc: withPhoto, data: product(i), padding }));
    const hashes: string[] = [];
    await renderTagBatch(batch, ({ tag, problems }) => {
      expect(problems).toEqual([]);
      hashes.push(tag.hash);
    });
    for (const [i, job] of batch.entries()) {
      expect(hashes[i]).toBe((await renderTagImage(job.doc, job.data, job.padding)).tag.hash);
    }
    // Without the image the labels differ: the image is really drawn.
    expect(hashes[0]).not.toBe(renderForTag(doc, product(0), env, padding).tag.hash);
  });

  test('lets the event loop turn while it renders', async () => {
    // More pixels than one turn's budget: the batch must give the loop at least one turn.
    const n = Math.ceil((3 * BATCH_PIXEL_BYTES) / (296 * 152 * 4));
    let turns = 0;
    let handle: NodeJS.Immediate | undefined;
    const tick = () => {
      turns++;
      handle = setImmediate(tick);
    };
    handle = setImmediate(tick);
    let turnsDuringBatch = 0;
    await renderTagBatch(
      jobs(n),
      (_render, _job, index) => {
        if (index === n - 1) turnsDuringBatch = turns;
      },
      env,
    );
    clearImmediate(handle);
    expect(turnsDuringBatch).toBeGreaterThanOrEqual(2);
  });

  test("frees the canvas's pixel buffers as it goes (a plain loop keeps every one)", async () => {
    // Each label's pixels (180 KB here) come back in a native buffer that Node frees only when the
    // event loop turns: 2,000 labels kept would be 360 MB more. Warm up first, then measure.
    await renderTagBatch(jobs(300), () => {}, env);
    const before = process.memoryUsage.rss();
    let peak = before;
    await renderTagBatch(
      jobs(2000),
      (_render, _job, index) => {
        if (index % 100 === 99) peak = Math.max(peak, process.memoryUsage.rss());
      },
      env,
    );
    expect((peak - before) / 2 ** 20).toBeLessThan(150);
  });
});
