import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientSource, DOCUMENT, GENERATE, GENERATED, methodName, type OpenApi } from './generate-client';

// Issue 26 item 10: the integrators' client (packages/client) is generated from the committed
// OpenAPI document; a change to the document without a new client fails here.
const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as OpenApi;
const manifest = JSON.parse(readFileSync(new URL('../packages/client/package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('packages/client/src/generated.ts', () => {
  it(`is what the generator writes from docs/openapi.json (else: ${GENERATE})`, () => {
    expect(readFileSync(GENERATED, 'utf8') === clientSource(doc), `stale: ${GENERATE}`).toBe(true);
  });

  it('changes with the document: a new field of an answer is a new property of its type', () => {
    const changed = structuredClone(doc);
    const item = changed.paths['/open/v1/stores/list']?.post.responses['200']?.content?.['application/json']?.schema
      ?.oneOf as { properties: { data: { items: { properties: Record<string, unknown>; required: string[] } } } }[];
    item[0].properties.data.items.properties.opensAt = { type: 'string' };
    item[0].properties.data.items.required.push('opensAt');
    const source = clientSource(changed);
    expect(source).not.toBe(clientSource(doc));
    expect(source).toMatch(/export interface StoreListItem \{[^}]*opensAt: string;/);
  });

  it('names one method per integration call, and the package has the document’s version', () => {
    const ids = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/open/v1/'))
      .map(([, item]) => item.post?.operationId ?? '');
    const names = ids.map(methodName);
    expect(new Set(names).size).toBe(ids.length);
    expect(names.every((n) => /^[a-z][A-Za-z0-9]*$/.test(n))).toBe(true);
    expect(manifest.version).toBe(doc.info.version);
  });
});
