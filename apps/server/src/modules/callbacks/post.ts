import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { OPEN_HEADERS } from '@esl/contract';
import {
  type AddressPolicy,
  guardedLookup,
  isSelf,
  parseCallbackUrl,
  type Resolver,
  refusal,
  systemResolver,
} from '../../infra/lib/address';
import { sign } from '../../infra/lib/signature';

/** Header naming the event's type; the event's id and the attempt number follow. */
export const CALLBACK_HEADERS = {
  event: 'x-esl-event',
  eventId: 'x-esl-event-id',
  attempt: 'x-esl-attempt',
} as const;

/** Characters of an answer's body kept (for the console); the rest is not read. */
export const EXCERPT_CHARS = 200;
const READ_BYTES = 1024;

export interface Attempt {
  ok: boolean;
  status: number | null;
  error: string;
  excerpt: string;
}

export interface PostOptions {
  now: () => number;
  policy: AddressPolicy;
  /** Longest wait for one delivery's answer, ms. */
  timeoutMs: number;
  /** This server's public address (PUBLIC_URL): refused whatever it resolves to (address.ts isSelf). */
  selfUrls?: readonly string[];
  resolver?: Resolver;
}

const refused: Attempt = { ok: false, status: null, error: 'refused address', excerpt: '' };

/**
 * One delivery attempt of an event to the tenant's URL: the address checked (never this server,
 * never a refused range, at connect time too), the body signed as an integration call is, the
 * answer read up to READ_BYTES within the timeout.
 */
export function postEvent(
  row: { type: string; event_id: string; payload: string },
  target: { url: string; ck: string; sk: string },
  attempt: number,
  o: PostOptions,
): Promise<Attempt> {
  let url: URL;
  try {
    url = parseCallbackUrl(target.url);
  } catch {
    return Promise.resolve(refused);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isSelf(url, o.selfUrls ?? [])) return Promise.resolve(refused);
  if (isIP(host) && refusal(host, o.policy) !== null) return Promise.resolve(refused);
  const timestamp = String(o.now());
  const nonce = randomBytes(16).toString('hex');
  const path = `${url.pathname}${url.search}`;
  const body = Buffer.from(row.payload, 'utf8');
  const signature = sign(target.sk, { method: 'POST', path, timestamp, nonce, body });
  const headers = {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'user-agent': 'esl-callbacks/1',
    [OPEN_HEADERS.key]: target.ck,
    [OPEN_HEADERS.timestamp]: timestamp,
    [OPEN_HEADERS.nonce]: nonce,
    [OPEN_HEADERS.signature]: signature,
    [CALLBACK_HEADERS.event]: row.type,
    [CALLBACK_HEADERS.eventId]: row.event_id,
    [CALLBACK_HEADERS.attempt]: String(attempt),
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    const done = (a: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    const req = request(
      url,
      { method: 'POST', headers, lookup: guardedLookup(o.policy, o.resolver ?? systemResolver) as never, agent: false },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          const status = res.statusCode ?? 0;
          const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
          const ok = status >= 200 && status < 300;
          done({ ok, status, error: ok ? '' : `HTTP ${status}`, excerpt });
          res.destroy();
        };
        res.on('data', (c: Buffer) => {
          if (size < READ_BYTES) chunks.push(c.subarray(0, READ_BYTES - size));
          size += c.length;
          if (size >= READ_BYTES) finish();
        });
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      done({ ok: false, status: null, error: 'timeout', excerpt: '' });
      req.destroy();
    }, o.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      const error =
        err.code === 'ECALLBACKADDRESS' ? 'refused address' : `connection failed${err.code ? ` (${err.code})` : ''}`;
      done({ ok: false, status: null, error, excerpt: '' });
    });
    req.end(body);
  });
}
