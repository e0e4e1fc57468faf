import { randomBytes } from 'node:crypto';
import { type Envelope, OPEN_BASE, OPEN_HEADERS } from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import { sign } from '../infra/lib/signature';
import { checkAnswersOf } from './answers';

// Helpers of the integration API's tests: signed calls made as docs/INTEGRATION.md says.

export interface Key {
  ck: string;
  sk: string;
}

export interface SendOptions {
  /** Sign this body instead of the one sent (a tampered request). */
  signedBody?: string;
  /** Sign this path instead of the one sent. */
  signedPath?: string;
  timestamp?: number;
  nonce?: string;
  lang?: 'en' | 'zh-CN';
  /** Send this ck while signing with key.sk. */
  ck?: string;
}

export const nonce = () => randomBytes(12).toString('hex');

/** A signed POST to an integration call, as docs/INTEGRATION.md tells a caller to make it. */
export async function send<T>(app: FastifyInstance, key: Key, path: string, body: unknown, opts: SendOptions = {}) {
  const url = OPEN_BASE + path;
  const text = JSON.stringify(body);
  const timestamp = String(opts.timestamp ?? app.services.config.now());
  const n = opts.nonce ?? nonce();
  const signature = sign(key.sk, {
    method: 'POST',
    path: opts.signedPath ?? url,
    timestamp,
    nonce: n,
    body: opts.signedBody ?? text,
  });
  const res = await checkAnswersOf(app).inject({
    method: 'POST',
    url,
    payload: text,
    headers: {
      'content-type': 'application/json',
      'accept-language': opts.lang ?? 'en',
      [OPEN_HEADERS.key]: opts.ck ?? key.ck,
      [OPEN_HEADERS.timestamp]: timestamp,
      [OPEN_HEADERS.nonce]: n,
      [OPEN_HEADERS.signature]: signature,
    },
  });
  const retryAfter = res.headers['retry-after'];
  return { ...(res.json() as Envelope<T>), status: res.statusCode, retryAfter: retryAfter as string | undefined };
}
