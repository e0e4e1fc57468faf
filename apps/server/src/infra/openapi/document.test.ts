import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './document';

// Issue 26 item 10: the document integrators build on. It is committed (docs/openapi.json, so a
// change to the contract shows in review and a client can be generated from the repository), each
// operation named, and refusals valid against it.
const committed = new URL('../../../../../docs/openapi.json', import.meta.url);
const WRITE = 'npm run --silent esl -- openapi > docs/openapi.json';
// The integrators' client is generated from the committed document (scripts/client.test.ts).
const CLIENT = 'node --import tsx scripts/generate-client.ts';

type Operation = { operationId?: string; responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
const doc = openApiDocument() as { paths: Record<string, { post: Operation }>; components: Record<string, unknown> };
const operations = Object.entries(doc.paths).map(([path, item]) => ({ path, op: item.post }));

describe('the OpenAPI document', () => {
  it(`is committed as docs/openapi.json, up to date (else: ${WRITE})`, () => {
    const text = readFileSync(committed, 'utf8');
    expect(JSON.parse(text), `docs/openapi.json is stale: ${WRITE}, then ${CLIENT}`).toEqual(
      JSON.parse(JSON.stringify(doc)),
    );
  });

  it('names every operation once', () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[A-Za-z][\w.]*$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('accepts a refusal (data: null) and a success of the call, rejects a refusal that sends data', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const validatorOf = (schema: unknown) =>
      ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
    for (const { path, op } of operations) {
      const schema = op.responses['200']?.content?.['application/json']?.schema;
      expect(schema, path).toBeDefined();
      const valid = validatorOf(schema);
      expect(valid({ code: 1002, msg: 'Not found', data: null }), `${path}: ${ajv.errorsText(valid.errors)}`).toBe(
        true,
      );
      expect(valid({ code: 1002, msg: 'Not found', data: { id: 1 } }), path).toBe(false);
    }
    // A success must carry the call's data: code 0 with data null is neither a success nor a refusal.
    const login = validatorOf(
      doc.paths['/api/user/login']?.post.responses['200']?.content?.['application/json']?.schema,
    );
    expect(login({ code: 0, msg: 'ok', data: null })).toBe(false);
    const tooMany = doc.paths['/api/user/login']?.post.responses['429'] as { headers?: Record<string, unknown> };
    expect(tooMany?.headers).toHaveProperty('Retry-After');
  });
});
