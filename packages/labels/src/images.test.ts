import { createServer } from 'node:http';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { jpegSize } from './decode';
import { SAMPLE_DATA, TEMPLATE_VERSION, TemplateDocument } from './model/document';
import { decodeLabelImage, registerFonts, renderToPng } from './node';

const requests: string[] = [];
const server = createServer((req, res) => {
  requests.push(req.url ?? '');
  res.end();
}).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const port = (server.address() as { port: number }).port;
afterAll(() => server.close());

const jpeg = () => {
  const canvas = createCanvas(40, 20);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, 20, 20);
  return canvas.toBuffer('image/jpeg', 90);
};
const dataUrl = (bytes: Buffer, type = 'image/jpeg') => `data:${type};base64,${bytes.toString('base64')}`;

const imageDoc = (src: string) =>
  TemplateDocument.parse({
    version: TEMPLATE_VERSION,
    size: { model: null, w: 80, h: 40 },
    colourType: 'bw',
    elements: [{ type: 'image', id: 'picture', x: 0, y: 0, w: 40, h: 20, src }],
  });

// Issue 11 hardening: a template's image (or a product field bound to one) is data, never an
// address the server reads or fetches.
describe('label images on the server', () => {
  it('fetches no address and reads no file: only data: URLs are images', async () => {
    registerFonts();
    for (const src of [`http://127.0.0.1:${port}/internal.png`, `https://127.0.0.1:${port}/x.jpg`, '/etc/hostname']) {
      await expect(decodeLabelImage(src)).rejects.toThrow(/data: URL/);
      const drawn = await renderToPng(imageDoc(src), SAMPLE_DATA);
      expect(drawn.problems.map((p) => p.elementId)).toEqual(['picture']);
    }
    expect(requests).toEqual([]);
  });

  it('decodes a JPEG data URL as before, and refuses one that declares too many pixels before decoding it', async () => {
    const bytes = jpeg();
    const decoded = await decodeLabelImage(dataUrl(bytes));
    const direct = await loadImage(bytes);
    const canvas = createCanvas(direct.width, direct.height);
    canvas.getContext('2d').drawImage(direct, 0, 0);
    expect([decoded.width, decoded.height]).toEqual([40, 20]);
    expect(Buffer.from(decoded.data).equals(Buffer.from(canvas.getContext('2d').getImageData(0, 0, 40, 20).data))).toBe(
      true,
    );
    expect(jpegSize(bytes)).toEqual({ width: 40, height: 20 });
    // The same file, its frame header saying 65000 × 65000.
    const huge = Buffer.from(bytes);
    let at = 2;
    while (!(huge[at + 1] >= 0xc0 && huge[at + 1] <= 0xc3)) at += 2 + huge.readUInt16BE(at + 2);
    huge.writeUInt16BE(65_000, at + 5);
    huge.writeUInt16BE(65_000, at + 7);
    expect(jpegSize(huge)).toEqual({ width: 65_000, height: 65_000 });
    await expect(decodeLabelImage(dataUrl(huge))).rejects.toThrow(/too large/);
    await expect(decodeLabelImage(dataUrl(Buffer.from('<svg/>'), 'image/svg+xml'))).rejects.toThrow(/PNG or JPEG/);
  });
});
