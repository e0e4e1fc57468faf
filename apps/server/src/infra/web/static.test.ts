import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { ALL_CALLS, LABEL_FONTS, XLSX_TYPE } from '@esl/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { pickEncoding } from './compression';

const dist = mkdtempSync(join(tmpdir(), 'esl-dist-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title><div id="root"></div>');
writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
// As the console's build leaves a hashed file: beside it its brotli and gzip copies.
const hashedJs = `console.log(${'"a compressible line";'.repeat(200)})`;
writeFileSync(join(dist, 'assets', 'index-Ab1_cD2e.js'), hashedJs);
writeFileSync(join(dist, 'assets', 'index-Ab1_cD2e.js.br'), brotliCompressSync(hashedJs));
writeFileSync(join(dist, 'assets', 'index-Ab1_cD2e.js.gz'), gzipSync(hashedJs));
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

describe('compression and caching (issue 26 item 3)', () => {
  const t = useApp(sqlite, { webDist: dist });
  const get = (url: string, encoding?: string) =>
    t().app.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });

  it('sends the pre-compressed copy the browser accepts, and caches hashed files for a year', async () => {
    const br = await get('/assets/index-Ab1_cD2e.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(hashedJs);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await get('/assets/index-Ab1_cD2e.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(hashedJs);
    const plain = await get('/assets/index-Ab1_cD2e.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(hashedJs);
    // The pages name the current hashes: asked again every time; an unhashed file is not immutable.
    expect((await get('/')).headers['cache-control']).toBe('no-cache');
    expect((await get('/basemgr/esl')).headers['cache-control']).toBe('no-cache');
    expect((await get('/assets/app.js')).headers['cache-control']).toBe('no-cache');
  });

  it('compresses the OpenAPI document', async () => {
    const plain = await get('/api/openapi.json');
    const br = await get('/api/openapi.json', 'br;q=1, gzip;q=0.5');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gz = await get('/api/openapi.json', 'br;q=0, gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('compresses the label fonts (~10 MB each): brotli or gzip as accepted, Vary, an entity tag per coding', async () => {
    const url = LABEL_FONTS[0].url;
    const plain = await get(url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.rawPayload.length).toBeGreaterThan(5_000_000);
    // Two browsers at once: one compression, the same bytes for both.
    const [br, again] = await Promise.all([get(url, 'gzip, deflate, br, zstd'), get(url, 'br')]);
    for (const res of [br, again]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.headers['content-type']).toBe('font/ttf');
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    }
    expect(br.rawPayload.equals(again.rawPayload)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length * 0.6);
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const gz = await get(url, 'br;q=0, gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
    // A cached copy is still good only for the same coding.
    const tags = [plain, br, gz].map((r) => String(r.headers.etag));
    expect(new Set(tags).size).toBe(3);
    const revalidate = (encoding: string, etag: string) =>
      t().app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding, 'if-none-match': etag } });
    expect((await revalidate('br', String(br.headers.etag))).statusCode).toBe(304);
    expect((await revalidate('gzip', String(br.headers.etag))).statusCode).toBe(200);
  });

  it('picks an encoding as the header says', () => {
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0')).toBeNull();
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
    const list = doc.paths['/api/mgr/station/list'].post.responses['200'].content['application/json'].schema.oneOf[0];
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
