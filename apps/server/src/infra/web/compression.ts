import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/*
 * Compression (issue 26 item 3). The console's files are compressed once, when it is built
 * (apps/web/vite.config.ts writes name.br and name.gz beside each), and @fastify/static sends the
 * one the browser accepts (preCompressed). A large answer made in the server that never changes
 * while it runs (the OpenAPI document) is compressed on its first request and kept; so are the
 * label fonts (/fonts/, ~10 MB each for Chinese), files of an npm package (compressedFile).
 */

/** Vite's hashed file names (name-HASH.ext): their content never changes under that name. */
const HASHED = /[\\/]assets[\\/][^\\/]+-[\w-]{8}(\.[a-z0-9]+)+$/i;

export const YEAR_IMMUTABLE = 'public, max-age=31536000, immutable';

/** The options of the console's static files: pre-compressed, hashed ones cached for a year. */
export function staticFileOptions(root: string) {
  return {
    root,
    wildcard: true,
    preCompressed: true,
    setHeaders: (reply: FastifyReply, path: string) => {
      // index.html and pda.html name the current hashes: always asked again (a 304 when unchanged).
      reply.header('cache-control', HASHED.test(path) ? YEAR_IMMUTABLE : 'no-cache');
    },
  };
}

/** The coding to answer with: brotli, else gzip, else none (one refused with q=0 is not taken). */
export function pickEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  const offered = new Map<string, number>();
  for (const part of (accept ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    offered.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (offered.get(name) ?? offered.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/** A fixed answer, sent compressed as the caller accepts; each coding made once, on first use. */
export function fixedAnswer(body: () => string, type: string) {
  let plain: Buffer | null = null;
  const coded = new Map<'br' | 'gzip', Buffer>();
  return (request: FastifyRequest, reply: FastifyReply) => {
    plain ??= Buffer.from(body());
    const encoding = pickEncoding(request.headers['accept-encoding']);
    reply.type(type).header('vary', 'accept-encoding');
    if (!encoding) return reply.send(plain);
    let bytes = coded.get(encoding);
    if (!bytes) {
      bytes =
        encoding === 'br'
          ? brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
          : gzipSync(plain, { level: 9 });
      coded.set(encoding, bytes);
    }
    return reply.header('content-encoding', encoding).send(bytes);
  };
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * A file that does not change while the server runs (a label font from npm), compressed for a
 * caller on first use and kept in memory: off the event loop (zlib's thread pool), once per
 * coding however many callers ask at the same time. Brotli at quality 5 and gzip at level 6:
 * ~1 s and ~0.3 s for a 10 MB font, which brotli makes 5.6 MB and gzip 6.3 MB (quality 11
 * would save 12 % more for 45 s of a core). Null when compressing failed: send the file as it is.
 */
export function compressedFile(path: string): (encoding: 'br' | 'gzip') => Promise<Buffer | null> {
  const coded = new Map<'br' | 'gzip', Promise<Buffer | null>>();
  return (encoding) => {
    let bytes = coded.get(encoding);
    if (!bytes) {
      bytes = readFile(path)
        .then((plain) =>
          encoding === 'br'
            ? brotliAsync(plain, {
                params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: plain.length },
              })
            : gzipAsync(plain, { level: 6 }),
        )
        .catch(() => {
          coded.delete(encoding);
          return null;
        });
      coded.set(encoding, bytes);
    }
    return bytes;
  };
}

/** Whether an If-None-Match header names the entity tag (a list, weak tags and `*` included). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
