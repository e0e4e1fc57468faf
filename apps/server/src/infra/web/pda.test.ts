import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { CONTENT_SECURITY_POLICY, isPdaPath } from './headers';

const dist = mkdtempSync(join(tmpdir(), 'esl-dist-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title><div id="root"></div>');
writeFileSync(join(dist, 'pda.html'), '<!doctype html><title>handheld</title><div id="pda"></div>');
mkdirSync(join(dist, 'assets'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const [sqlite] = await testDatabases();

describe('the handheld page (/pda/)', () => {
  const t = useApp(sqlite, { webDist: dist });
  const get = (url: string) => t().app.inject({ method: 'GET', url });

  it('answers pda.html at /pda, /pda/ and below, with the console’s CSP and the camera allowed to itself', async () => {
    for (const url of ['/pda', '/pda/', '/pda/?store=3', '/pda/bind']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<title>handheld</title>');
      expect(res.headers['content-security-policy'], url).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(String(res.headers['permissions-policy']), url).toContain('camera=(self)');
      expect(String(res.headers['permissions-policy']), url).toContain('microphone=()');
    }
  });

  it('leaves the console and the API without the camera', async () => {
    for (const url of ['/', '/basemgr/esl', '/pdafoo']) {
      const res = await get(url);
      expect(res.body, url).toContain('<title>console</title>');
      expect(String(res.headers['permissions-policy']), url).toContain('camera=()');
    }
    const api = await t().app.inject({ method: 'POST', url: '/api/user/info', payload: {} });
    expect(String(api.headers['permissions-policy'])).toContain('camera=()');
  });

  it('tells handheld paths from others', () => {
    expect(['/pda', '/pda/', '/pda/x?y=1', '/pda.html'].map(isPdaPath)).toEqual([true, true, true, true]);
    expect(['/', '/pdafoo', '/api/pda', '/assets/pda.js'].map(isPdaPath)).toEqual([false, false, false, false]);
  });
});
