import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as source from '@esl/client';
import { ErrorCode, OPEN_BASE, OPEN_CALLS } from '@esl/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign as serverSign } from '../infra/lib/signature';
import { checkAnswer } from '../test/answers';
import type { TestDatabase } from '../test/databases';
import { buildStore, buildTenant } from '../test/factories';
import { useApp } from '../test/harness';

// Issue 26 item 10: the integrators' client (packages/client), built as it is published, against
// a running server: signed calls accepted, a wrong key refused with its code, the example of
// docs/INTEGRATION.md run, and every answer it gets checked against the OpenAPI document.
type Client = typeof source;
const root = new URL('../../../../', import.meta.url).pathname;
const sqlite: TestDatabase = { name: 'sqlite', create: async () => ({ url: 'sqlite::memory:', drop: async () => {} }) };
const dir = mkdtempSync(join(tmpdir(), 'esl-client-'));
/** The built package where an integration's node_modules would have it. */
const installed = join(dir, 'node_modules', '@esl', 'client');
let built: Client;

beforeAll(async () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-client.ts', installed], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  built = (await import(/* @vite-ignore */ pathToFileURL(join(installed, 'index.js')).href)) as Client;
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** fetch, with each answer checked against the document (as the harness checks app.inject's). */
const checkedFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  checkAnswer({
    method: init?.method ?? 'GET',
    url: url.pathname + url.search,
    status: res.status,
    headers: Object.fromEntries(res.headers),
    payload: await res.clone().text(),
  });
  return res;
};

function docBlock(after: string): string {
  const doc = readFileSync(join(root, 'docs/INTEGRATION.md'), 'utf8');
  const from = doc.indexOf(after);
  const start = doc.indexOf('```ts\n', from);
  const end = doc.indexOf('\n```', start + 1);
  if (from < 0 || start < 0 || end < 0) throw new Error(`no ts block after ${after}`);
  return doc.slice(start + 6, end);
}

describe('@esl/client, built, against a running server', () => {
  const t = useApp(sqlite, { now: Date.now });
  let baseUrl = '';
  beforeAll(async () => {
    baseUrl = await t().app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('has a method for every integration call', () => {
    const client = built.createClient({ baseUrl: 'http://127.0.0.1:1', ck: 'ck', sk: 'sk' });
    const paths = Object.values(built.OPERATIONS).map((o) => o.path);
    expect(paths.sort()).toEqual(
      Object.values(OPEN_CALLS)
        .map((c) => OPEN_BASE + c.path)
        .sort(),
    );
    for (const name of Object.keys(built.OPERATIONS))
      expect(typeof client[name as keyof typeof client]).toBe('function');
  });

  it('makes signed calls the server accepts, and gets a wrong sk and an unknown ck refused with their codes', async () => {
    const { app } = t();
    const tenant = await buildTenant(app);
    const store = await buildStore(app, tenant.id);
    const esl = built.createClient({ baseUrl, ck: tenant.ck, sk: tenant.sk, language: 'en', fetch: checkedFetch });

    const stores = await esl.storeList({ page: 1, limit: 50 });
    expect(stores.ok, stores.msg).toBe(true);
    if (!stores.ok) return;
    expect(stores.data.map((s) => s.code)).toEqual([store.code]);
    expect([stores.count, stores.http]).toEqual([1, { status: 200 }]);
    // A call whose body may be left out.
    const callback = await esl.callbackGet();
    expect([callback.code, callback.data]).toEqual([0, { url: '', priceWrongMinutes: 15 }]);

    const wrongSk = built.createClient({ baseUrl, ck: tenant.ck, sk: 'f'.repeat(64), fetch: checkedFetch });
    const refused = await wrongSk.storeList({});
    expect([refused.ok, refused.code, refused.data]).toEqual([false, ErrorCode.OPEN_SIGNATURE_INVALID, null]);
    const unknown = built.createClient({
      baseUrl,
      ck: 'no-such-key',
      sk: tenant.sk,
      language: 'en',
      fetch: checkedFetch,
    });
    const noKey = await unknown.call('storeList');
    expect([noKey.ok, noKey.code, noKey.http.status]).toEqual([false, ErrorCode.OPEN_KEY_INVALID, 200]);
    // Refused bodies are answers too: 1001 names the field.
    const invalid = await esl.upsertProducts({ store: store.code, products: [] });
    expect([invalid.ok, invalid.code]).toEqual([false, ErrorCode.VALIDATION]);
  });

  it('runs the example of docs/INTEGRATION.md, importing the package by name', async () => {
    const { app } = t();
    const tenant = await buildTenant(app);
    const store = await buildStore(app, tenant.id);
    const file = join(dir, 'example.ts');
    writeFileSync(file, docBlock('## Example: the client package (@esl/client)'));
    const { pushPrices } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
      pushPrices: (base: string, ck: string, sk: string, store: string) => Promise<{ created: number; status: string }>;
    };
    expect(await pushPrices(baseUrl, tenant.ck, tenant.sk, store.code)).toEqual({ created: 2, status: 'done' });
    await expect(pushPrices(baseUrl, tenant.ck, 'f'.repeat(64), store.code)).rejects.toThrow(
      `refused with ${ErrorCode.OPEN_SIGNATURE_INVALID}`,
    );
  });
});

describe('@esl/client over a key’s rate limit', () => {
  const t = useApp(sqlite, { now: Date.now, openRateLimitPerMinute: 1 });

  it('answers 429 with the seconds to wait in http.retryAfter, beside code 1020', async () => {
    const { app } = t();
    const tenant = await buildTenant(app);
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const esl = built.createClient({ baseUrl, ck: tenant.ck, sk: tenant.sk, fetch: checkedFetch });
    expect((await esl.storeList()).ok).toBe(true);
    const over = await esl.storeList();
    expect([over.ok, over.code, over.http.status]).toEqual([false, ErrorCode.OPEN_RATE_LIMITED, 429]);
    expect(over.http.retryAfter).toBeGreaterThan(0);
    expect(over.http.retryAfter).toBeLessThanOrEqual(60);
  });
});

describe('the client’s signing', () => {
  it('is the server’s: the same signature for the same request, and verifySignature accepts only it', async () => {
    const cases = [
      { method: 'POST', path: '/open/v1/stores/list', timestamp: '1768467600000', nonce: 'a'.repeat(16), body: '' },
      {
        method: 'POST',
        path: '/open/v1/products/upsert?x=1&y=%20',
        timestamp: String(Date.now()),
        nonce: source.newNonce(),
        body: JSON.stringify({ store: 'S1', products: [{ barcode: '1', name: '牛奶 1 L — “fresh”', price: '3.20' }] }),
      },
    ];
    const sk = 'k'.repeat(64);
    for (const parts of cases) {
      const signature = await source.sign(sk, parts);
      expect(signature).toBe(serverSign(sk, parts));
      expect(await source.verifySignature(sk, parts, signature)).toBe(true);
      expect(await source.verifySignature(sk, { ...parts, body: `${parts.body} ` }, signature)).toBe(false);
      expect(await source.verifySignature(`${sk}x`, parts, signature)).toBe(false);
    }
    expect(source.newNonce()).toMatch(/^[0-9a-f]{32}$/);
    expect(source.newNonce()).not.toBe(source.newNonce());
  });
});
