import { createReadStream, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { LABEL_FONTS } from '@esl/contract';
import { FONT_FILES, registerFonts } from '@esl/labels/node';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema';
import { compressedFile, etagMatches, pickEncoding } from '../../infra/web/compression';
import { THUMB_PATH } from './presenter';
import { findThumb } from './repository';

const require = createRequire(import.meta.url);

/**
 * Registers the label fonts with the server canvas (once, at start) and serves what the browser
 * needs to draw the same labels: the very same font files under /fonts/ (LABEL_FONTS in the
 * contract lists them) and each template's thumbnail under /uploads/templates/<key>.png.
 */
export function registerTemplateAssets(app: FastifyInstance, db: Kysely<Database>): void {
  registerFonts();
  const fonts = new Map(
    FONT_FILES.map((file) => {
      const path = require.resolve(file);
      const { size, mtimeMs } = statSync(path);
      const tag = `${size.toString(16)}-${Math.round(mtimeMs).toString(16)}`;
      return [basename(path), { path, size, tag, compressed: compressedFile(path) }];
    }),
  );
  for (const font of LABEL_FONTS) {
    if (!fonts.has(basename(font.url))) throw new Error(`LABEL_FONTS names ${font.url}, which is not a font file`);
  }

  // TrueType compresses to about half (issue 26 item 3): brotli or gzip as the browser accepts,
  // each coding made on its first request and kept (compressedFile); an entity tag per coding.
  app.get<{ Params: { file: string } }>('/fonts/:file', async (request, reply) => {
    const font = fonts.get(request.params.file);
    if (!font) return reply.code(404).type('text/plain').send('Not found');
    const encoding = pickEncoding(request.headers['accept-encoding']);
    const etag = `"${font.tag}${encoding ? `-${encoding}` : ''}"`;
    reply
      .type('font/ttf')
      .header('cache-control', 'public, max-age=604800')
      .header('vary', 'accept-encoding')
      .header('etag', etag)
      .header('access-control-allow-origin', '*');
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    const bytes = encoding ? await font.compressed(encoding) : null;
    if (bytes) return reply.header('content-encoding', encoding).send(bytes);
    return reply.header('etag', `"${font.tag}"`).header('content-length', font.size).send(createReadStream(font.path));
  });

  app.get<{ Params: { file: string } }>(`${THUMB_PATH}/:file`, async (request, reply) => {
    const key = /^([0-9a-f]{32})\.png$/.exec(request.params.file)?.[1];
    const row = key ? await findThumb(db, key) : undefined;
    if (!row) return reply.code(404).type('text/plain').send('Not found');
    return reply
      .type('image/png')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(row.png));
  });
}
