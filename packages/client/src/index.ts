// @esl/client: the typed client of the ESL platform's integration API (/open/v1), for ERP and POS
// integrations (docs/INTEGRATION.md). The types and the call list are generated from the OpenAPI
// document (generated.ts); this file signs each call with the tenant's key pair and sends it.
import { OPERATIONS, type Operations, SIGNING_HEADERS } from './generated.js';
import { newNonce, sign } from './sign.js';

export * from './generated.js';
export { newNonce, type SignedParts, sha256Hex, sign, signingText, verifySignature } from './sign.js';

export type OperationName = keyof Operations;
export type Body<N extends OperationName> = Operations[N]['body'];
/**
 * A call's answer: its success (`ok: true`, code 0, the call's data) or a refusal (`ok: false`,
 * the code and message, `data: null`), and what HTTP said. `ok` narrows the type.
 */
export type Answer<N extends OperationName> = (
  | (Operations[N]['success'] & { ok: true })
  | (Operations[N]['refusal'] & { ok: false })
) & { http: HttpInfo };

export interface HttpInfo {
  /** 200 for every answer but a crash (500) and a key's rate limit (429). */
  status: number;
  /** With 429: the seconds to wait before calling again. */
  retryAfter?: number;
}

export interface ClientOptions {
  /** The server's origin, e.g. `https://esl.example.com` (the calls' paths start with /open/v1). */
  baseUrl: string;
  /** The tenant's key pair from the console's parameter page: ck names the tenant, sk signs. */
  ck: string;
  sk: string;
  /** The language of `msg` (the server's default is zh-CN). */
  language?: 'en' | 'zh-CN';
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Unix milliseconds for the timestamp header; defaults to Date.now (within ±5 min of the server). */
  now?: () => number;
}

/** An answer that is not the API's JSON envelope (e.g. a proxy's error page). */
export class EslHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}: not an answer of the ESL API (${body.slice(0, 200)})`);
    this.name = 'EslHttpError';
  }
}

/** A body may be left out when every field of it is optional. */
type Args<N extends OperationName> = Record<string, never> extends Body<N> ? [body?: Body<N>] : [body: Body<N>];

export type EslClient = { [N in OperationName]: (...args: Args<N>) => Promise<Answer<N>> } & {
  /** Any call by name, e.g. `client.call('storeList', { page: 1 })`. */
  call<N extends OperationName>(name: N, ...args: Args<N>): Promise<Answer<N>>;
};

/**
 * A client whose methods are the integration calls (`upsertProducts`, `tagList`, …), each
 * signed as docs/INTEGRATION.md says. A refusal is an answer, not an exception: check `code`.
 */
export function createClient(options: ClientOptions): EslClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const send = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;

  async function call<N extends OperationName>(name: N, ...[body]: Args<N>): Promise<Answer<N>> {
    const operation = OPERATIONS[name];
    if (!operation) throw new Error(`no such call: ${String(name)}`);
    const text = JSON.stringify(body ?? {});
    const timestamp = String(now());
    const nonce = newNonce();
    const signature = await sign(options.sk, { method: 'POST', path: operation.path, timestamp, nonce, body: text });
    const res = await send(base + operation.path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.language ? { 'accept-language': options.language } : {}),
        [SIGNING_HEADERS.key]: options.ck,
        [SIGNING_HEADERS.timestamp]: timestamp,
        [SIGNING_HEADERS.nonce]: nonce,
        [SIGNING_HEADERS.signature]: signature,
      },
      body: text,
    });
    const raw = await res.text();
    let envelope: unknown;
    try {
      envelope = JSON.parse(raw);
    } catch {
      throw new EslHttpError(res.status, raw);
    }
    if (
      typeof envelope !== 'object' ||
      envelope === null ||
      typeof (envelope as { code?: unknown }).code !== 'number'
    ) {
      throw new EslHttpError(res.status, raw);
    }
    const retryAfter = res.headers.get('retry-after');
    const http: HttpInfo = { status: res.status, ...(retryAfter ? { retryAfter: Number(retryAfter) } : {}) };
    const ok = (envelope as { code: number }).code === 0;
    return { ...(envelope as object), ok, http } as Answer<N>;
  }

  const client = { call } as Record<string, unknown>;
  for (const name of Object.keys(OPERATIONS) as OperationName[]) {
    client[name] = (...args: Args<typeof name>) => call(name, ...args);
  }
  return client as EslClient;
}
