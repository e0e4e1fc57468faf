import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { curlExample, ErrorCode } from '@esl/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { buildStore, buildTenant } from '../test/factories';
import { useApp } from '../test/harness';

const doc = readFileSync(new URL('../../../../docs/INTEGRATION.md', import.meta.url), 'utf8');

/** The first fenced block of a language after a heading. */
function block(lang: string, after: string): string {
  const from = doc.indexOf(after);
  const start = doc.indexOf(`\`\`\`${lang}\n`, from);
  const end = doc.indexOf('\n```', start + 1);
  if (from < 0 || start < 0 || end < 0) throw new Error(`no ${lang} block after ${after}`);
  return doc.slice(start + lang.length + 4, end);
}

describe('docs/INTEGRATION.md', () => {
  const t = useApp(
    { name: 'sqlite', create: async () => ({ url: 'sqlite::memory:', drop: async () => {} }) },
    { now: Date.now },
  );
  const dir = mkdtempSync(join(tmpdir(), 'esl-integration-doc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('shows exactly the curl example the console shows (a test in open.test.ts runs it)', () => {
    expect(block('sh', '## Example: curl')).toBe(curlExample('http://127.0.0.1:8080', '<ck>', '<sk>'));
  });

  it('has a TypeScript example whose signedCall the server accepts, and refuses with another sk', async () => {
    const { app } = t();
    const tenant = await buildTenant(app);
    const store = await buildStore(app, tenant.id);
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const file = join(dir, 'example.ts');
    writeFileSync(file, block('ts', '## Example: TypeScript'));
    const { signedCall } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
      signedCall: (
        base: string,
        ck: string,
        sk: string,
        path: string,
        body: unknown,
      ) => Promise<{ code: number; msg: string; data: unknown }>;
    };
    const body = { store: store.code, products: [{ barcode: '6901234567890', name: 'Milk 1 L', price: '3.20' }] };
    const first = await signedCall(base, tenant.ck, tenant.sk, '/open/v1/products/upsert', body);
    expect(first.code, first.msg).toBe(0);
    expect(first.data).toEqual({ created: 1, updated: 0, unchanged: 0, requestId: expect.any(Number), tasks: 0 });
    const second = await signedCall(base, tenant.ck, tenant.sk, '/open/v1/products/upsert', body);
    expect(second.data).toMatchObject({ created: 0, updated: 0, unchanged: 1, tasks: 0 });
    const wrong = await signedCall(base, tenant.ck, 'f'.repeat(64), '/open/v1/products/upsert', body);
    expect(wrong.code).toBe(ErrorCode.OPEN_SIGNATURE_INVALID);
  });

  it('lists every integration refusal code with its meaning', () => {
    for (const code of [1016, 1017, 1018, 1019, 1020]) expect(doc).toMatch(new RegExp(`\\| ${code} \\|`));
  });
});
