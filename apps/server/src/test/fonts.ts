import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { BrandFont } from '@esl/contract';
import { TEMPLATE_VERSION, type TemplateDocumentInput } from '@esl/labels';
import type { FastifyInstance } from 'fastify';
import { multipartFile } from './business';

// Brand font fixtures of the server tests (issue 28 item 3): font files from bwip-js (a
// devDependency of @esl/labels' tests) and a document naming a family.

const require = createRequire(import.meta.url);
const fontDir = join(dirname(require.resolve('bwip-js')), '../fonts');
/** OCR-B, TrueType: its Latin looks nothing like Noto Sans SC's. */
export const OCRB = readFileSync(join(fontDir, 'OCRB7.ttf'));
/** Inconsolata, OpenType with CFF outlines. */
export const OTF = readFileSync(join(fontDir, 'Inconsolata.otf'));
/** Noto Sans SC Thin's Latin subset as a WOFF2 (from @fontsource, the console's own font package): thin strokes, unlike the base font's regular. */
export const WOFF2 = readFileSync(
  join(dirname(require.resolve('@fontsource/noto-sans-sc/package.json')), 'files/noto-sans-sc-latin-100-normal.woff2'),
);

export const brandDoc = (family: string): TemplateDocumentInput => ({
  version: TEMPLATE_VERSION,
  size: { model: '05', w: 250, h: 122 },
  colourType: 'bwr',
  elements: [
    { type: 'text', id: 'brand', x: 4, y: 4, w: 240, h: 50, text: 'SALE 1234', font: { family, size: 32 } },
    { type: 'text', id: 'name', x: 4, y: 60, w: 240, h: 50, text: 'Pear', binding: { key: 'name' } },
  ],
});

/**
 * `/api/mgr/templ/fontupload` as the console sends it: the file, and the family field when given
 * (before the file, as the form puts it); answers the envelope.
 */
export async function uploadFont(
  app: FastifyInstance,
  token: string,
  file: { name: string; bytes: Buffer; family?: string; lang?: string },
) {
  const { payload, headers } = multipartFile(file.name, file.bytes);
  let body = payload;
  if (file.family !== undefined) {
    const boundary = headers['content-type'].split('boundary=')[1];
    body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="family"\r\n\r\n${file.family}\r\n`),
      payload,
    ]);
  }
  const res = await app.inject({
    method: 'POST',
    url: '/api/mgr/templ/fontupload',
    headers: { ...headers, token, 'accept-language': file.lang ?? 'en' },
    payload: body,
  });
  return res.json() as { code: number; msg: string; data: BrandFont };
}
