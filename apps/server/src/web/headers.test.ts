import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases';
import { buildWorld } from '../test/factories';
import { useApp } from '../test/harness';
import { CONTENT_SECURITY_POLICY } from './headers';

const dist = mkdtempSync(join(tmpdir(), 'esl-dist-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title><div id="root"></div>');
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const [sqlite] = await testDatabases();

describe('security headers', () => {
  const t = useApp(sqlite, { webDist: dist });

  it('go on every answer: API, console, assets, not-found, OpenAPI', async () => {
    const answers = [
      await t().app.inject({ method: 'POST', url: '/api/user/info', payload: {} }),
      await t().app.inject({ method: 'GET', url: '/' }),
      await t().app.inject({ method: 'GET', url: '/basemgr/esl' }),
      await t().app.inject({ method: 'GET', url: '/assets/app.js' }),
      await t().app.inject({ method: 'GET', url: '/assets/missing.js' }),
      await t().app.inject({ method: 'GET', url: '/api/openapi.json' }),
      await t().app.inject({
        method: 'POST',
        url: '/api/user/login',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      }),
    ];
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

  it('add HSTS only when the request came over TLS', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    const plain = await t().app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
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
