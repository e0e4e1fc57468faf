import { writeFileSync } from 'node:fs';
import { rgbaToPng } from '../src/png';
import { readPngRgba } from './golden';

const f = process.argv[2];
const k = Number(process.argv[3] ?? 3);
const img = await readPngRgba(f);
const w = img.width * k,
  h = img.height * k;
const out = new Uint8Array(w * h * 4);
for (let y = 0; y < h; y++)
  for (let x = 0; x < w; x++) {
    const s = (Math.floor(y / k) * img.width + Math.floor(x / k)) * 4;
    out.set(img.data.subarray(s, s + 4), (y * w + x) * 4);
  }
writeFileSync('/tmp/lbl/v.png', rgbaToPng(w, h, out));
