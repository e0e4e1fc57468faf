import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPEN_BASE } from '@esl/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';
import { CONTENT_SECURITY_POLICY } from './headers';

const dist = mkdtempSync(join(tmpdir(), 'esl-dist-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title><div id="root"></div>');
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const [sqlite] = await testDatabases();

describe('security headers', () => {
  const t = useApp(sqlite, { webDist: dist });

  it('go on every answer: API, console, deep link, assets, uploads, fonts, not-found, OpenAPI, docs page, integration API', async () => {
    const answers = [
      await t().app.inject({ method: 'POST', url: '/api/user/info', payload: {} }),
      await t().app.inject({ method: 'GET', url: '/' }),
      await t().app.inject({ method: 'GET', url: '/basemgr/esl' }),
      await t().app.inject({ method: 'GET', url: '/assets/app.js' }),
      await t().app.inject({ method: 'GET', url: '/assets/missing.js' }),
      await t().app.inject({ method: 'GET', url: '/api/openapi.json' }),
      await t().app.inject({ method: 'GET', url: '/api/docs' }),
      await t().app.inject({ method: 'GET', url: '/uploads/avatars/0123456789abcdef0123456789abcdef' }),
      await t().app.inject({ method: 'GET', url: '/uploads/templates/missing.png' }),
      await t().app.inject({ method: 'GET', url: '/fonts/missing.ttf' }),
      await t().app.inject({ method: 'POST', url: `${OPEN_BASE}/products/upsert`, payload: {} }),
      await t().app.inject({
        method: 'POST',
        url: '/api/user/login',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      }),
    ];
    // The docs page is a page: it is served as HTML, and draws with no script the policy would block.
    const docs = answers[6];
    expect([docs.statusCode, docs.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(docs.body).not.toMatch(/<script|\son[a-z]+=/i);
    for (const res of answers) {
      expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['permissions-policy']).toContain('camera=()');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*'unsafe-(eval|inline)'/);
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  // A trusted proxy's X-Forwarded-Proto: https does bring HSTS (api/proxy.test.ts, TRUST_PROXY).
  it('add HSTS only when the request came over TLS, not on an untrusted X-Forwarded-Proto', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const plain = await t().app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  // docs/SECURITY.md, "Where the session token lives": a credential the browser attaches by
  // itself is what cross-site request forgery abuses, so the ESL-Token cookie is never one.
  it('takes the session token from the header only, never from the ESL-Token cookie', async () => {
    const { tokens } = await buildWorld(t().app);
    const cookie = `ESL-Token=${tokens.manager}`;
    for (const url of ['/api/user/info', '/api/mgr/product/list']) {
      const res = await t().app.inject({
        method: 'POST',
        url,
        headers: { cookie, 'accept-language': 'en' },
        payload: {},
      });
      expect(res.json()).toMatchObject({ code: 800 });
    }
    const header = await t().call('/user/info', {}, { token: tokens.manager });
    expect(header.code).toBe(0);
    const bearer = await t().app.inject({
      method: 'POST',
      url: '/api/user/info',
      headers: { authorization: `Bearer ${tokens.manager}` },
      payload: {},
    });
    expect(bearer.json()).toMatchObject({ code: 0 });
  });

  it('the notice socket refuses a page of another origin, before the upgrade', async () => {
    const { tokens } = await buildWorld(t().app);
    const path = `/sys/eslnotice?token=${tokens.manager}`;
    await expect(t().app.injectWS(path, { headers: { origin: 'https://evil.example' } })).rejects.toThrow(/403/);
    await expect(t().app.injectWS(path, { headers: { origin: 'not a url' } })).rejects.toThrow(/403/);
    const same = await t().app.injectWS(path, { headers: { origin: 'http://localhost:80', host: 'localhost:80' } });
    same.terminate();
    const tool = await t().app.injectWS(path);
    tool.terminate();
  });
});
