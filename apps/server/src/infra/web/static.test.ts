import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_CALLS, XLSX_TYPE } from '@esl/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';

const dist = mkdtempSync(join(tmpdir(), 'esl-dist-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title><div id="root"></div>');
writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const [sqlite] = await testDatabases();

describe('serving the built console', () => {
  const t = useApp(sqlite, { webDist: dist });

  it('serves files, and index.html for any other GET outside /api and /uploads', async () => {
    const get = (url: string) => t().app.inject({ method: 'GET', url });
    const root = await get('/');
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('<title>console</title>');
    for (const deep of ['/basemgr/esl', '/saadmin/sa/adm', '/login?redirect=%2Fdashboard']) {
      const res = await get(deep);
      expect(res.statusCode, deep).toBe(200);
      expect(res.body, deep).toContain('<title>console</title>');
    }
    const js = await get('/assets/app.js');
    expect(js.headers['content-type']).toContain('javascript');
    expect((await get('/assets/missing.js')).statusCode).toBe(404);
    expect((await get('/uploads/avatars/0123')).statusCode).toBe(404);
    expect((await get('/api/nothing')).json().code).toBe(1002);
  });
});

describe('without a console build', () => {
  const t = useApp(sqlite, { webDist: join(dist, 'absent') });

  it('still answers / with a page saying how to build it', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('npm run build');
    expect((await t().app.inject({ method: 'GET', url: '/basemgr/esl' })).body).toContain('npm run build');
  });
});

describe('OpenAPI', () => {
  const t = useApp(sqlite);

  it('publishes an OpenAPI 3.1 document with every call, and a reference page', async () => {
    const doc = (await t().app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    // Console calls under /api; the signed integration calls (/open/v1) are checked in open/open.test.ts.
    const consolePaths = Object.keys(doc.paths).filter((p) => !p.startsWith('/open/'));
    expect(consolePaths.sort()).toEqual(ALL_CALLS.map((d) => `/api${d.path}`).sort());
    const login = doc.paths['/api/user/login'].post;
    const schema = login.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(['username', 'password']);
    expect(schema.properties.password.pattern).toBeDefined();
    const list = doc.paths['/api/mgr/station/list'].post.responses['200'].content['application/json'].schema;
    expect(list.properties.data.type).toBe('array');
    expect(list.required).toContain('count');
    expect(doc.paths['/api/user/setcurrshop'].post.requestBody.content).toHaveProperty(
      'application/x-www-form-urlencoded',
    );
    // A call answering a file: the file's media type on success, the envelope on a refusal.
    const exported = doc.paths['/api/mgr/product/export'].post;
    expect(Object.keys(exported.responses['200'].content)).toEqual([XLSX_TYPE, 'application/json']);
    expect(exported.requestBody.content['application/json'].schema.properties.sort.enum).toContain('barcode');
    // The template document is the labels model's schema, not an opaque object.
    const saved = doc.paths['/api/mgr/templ/alerttempData'].post.requestBody.content['application/json'].schema;
    expect(saved.properties.doc.properties.elements.type).toBe('array');
    expect(saved.properties.doc.required).toEqual(expect.arrayContaining(['version', 'size', 'colourType']));

    const page = await t().app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.headers['content-type']).toContain('text/html');
    for (const def of ALL_CALLS) expect(page.body).toContain(`POST /api${def.path}`);
    expect(page.body).toContain('platform.tenants');
  });
});
