import { ErrorCode, OPEN_BASE } from '@esl/contract';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { type Answer, answerProblem, checkAnswersOf } from './answers';

// The checker every server test's answers go through (harness.ts, open.ts) must fail on an
// answer that breaks the document, or the suite proves nothing about the contract.
const STORES = `${OPEN_BASE}/stores/list`;
const store = { code: 'S1', name: 'Main street', address: '1 Main street', contact: 'Ann', phone: '555' };
const json = (path: string, body: unknown, status = 200): Answer => ({
  method: 'POST',
  url: path,
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  payload: JSON.stringify(body),
});

describe('the answer checker', () => {
  it('accepts a success and a refusal of the call, and names what is wrong in one that breaks the document', () => {
    expect(answerProblem(json(STORES, { code: 0, msg: 'ok', data: [store], count: 1 }))).toBeNull();
    expect(answerProblem(json(STORES, { code: ErrorCode.OPEN_KEY_INVALID, msg: 'no', data: null }))).toBeNull();

    const { phone: _drop, ...noPhone } = store;
    const missing = answerProblem(json(STORES, { code: 0, msg: 'ok', data: [noPhone], count: 1 }));
    expect(missing).toContain(`POST ${STORES} (open.openStoreList) answered HTTP 200`);
    expect(missing).toContain("/data/0 must have required property 'phone'");

    expect(answerProblem(json(STORES, { code: 0, msg: 'ok', data: [store] }))).toContain(
      "must have required property 'count'",
    );
    expect(answerProblem(json(STORES, { code: 0, msg: 'ok', data: [{ ...store, phone: 5 }], count: 1 }))).toContain(
      '/data/0/phone must be string',
    );
    // A refusal answers data: null, except one the call declares with data (an import's bad rows).
    expect(answerProblem(json(STORES, { code: 1002, msg: 'no', data: { id: 1 } }))).toContain(
      'as Refusal (oneOf[1]): /data must be null',
    );
    const rows = [{ line: 2, field: 'price', reason: 'two columns' }];
    const refusedImport = { code: ErrorCode.IMPORT_FAILED, msg: 'Import failed', data: rows };
    expect(answerProblem(json('/api/mgr/product/importmapped', refusedImport))).toBeNull();
    expect(answerProblem(json('/api/mgr/product/importmapped', { ...refusedImport, data: [{ line: 2 }] }))).toContain(
      "must have required property 'field'",
    );
  });

  it('refuses a status or media type the document does not list, and leaves undocumented paths alone', () => {
    expect(answerProblem(json(STORES, { code: 1002, msg: 'no', data: null }, 404))).toContain(
      'answered HTTP 404, which the document does not list',
    );
    const html = { ...json(STORES, {}), headers: { 'content-type': 'text/html' }, payload: '<p>hello</p>' };
    expect(answerProblem(html)).toContain('as text/html; the document lists application/json');
    expect(answerProblem({ ...json(STORES, {}), method: 'GET' })).toBeNull();
    expect(answerProblem(json('/api/no/such/call', { anything: true }))).toBeNull();
  });

  it('makes app.inject fail with the path and the error when the server answers a wrong shape', async () => {
    const app = Fastify();
    app.post(STORES, async () => ({ code: 0, msg: 'ok', data: [{ code: 'S1' }], count: 1 }));
    app.post(`${OPEN_BASE}/tags/list`, async () => ({ code: 0, msg: 'ok', data: [], count: 0 }));
    checkAnswersOf(checkAnswersOf(app));
    try {
      await expect(app.inject({ method: 'POST', url: STORES, payload: {} })).rejects.toThrow(
        new RegExp(`POST ${STORES} .*/data/0 must have required property 'name'`),
      );
      const fine = await app.inject({ method: 'POST', url: `${OPEN_BASE}/tags/list`, payload: {} });
      expect(fine.json()).toMatchObject({ code: 0 });
    } finally {
      await app.close();
    }
  });
});
