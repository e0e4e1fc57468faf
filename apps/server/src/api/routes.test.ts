import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases';
import { useApp } from '../test/harness';
import { routesOf } from '../test/routes';

const [sqlite] = await testDatabases();

// Issue 11 item 8: every call is in /api/openapi.json. The contract test (web/static.test.ts)
// compares the document with the contract; this one compares it with what the server really
// serves, so a route registered beside the contract is caught too.
describe('the route table reader', () => {
  it('joins a child printed under a route whose path it extends', () => {
    const table = [
      '├── /api/mgr/product/import (POST)',
      '│   ├── check (POST)',
      '│   └── mapped (POST, HEAD)',
      '└── /fonts/:file (GET, HEAD)',
    ].join('\n');
    expect(routesOf(table)).toEqual([
      'POST /api/mgr/product/import',
      'POST /api/mgr/product/importcheck',
      'POST /api/mgr/product/importmapped',
      'HEAD /api/mgr/product/importmapped',
      'GET /fonts/:file',
      'HEAD /fonts/:file',
    ]);
  });
});

describe('the OpenAPI document and the routes the server serves', () => {
  // No built console here: its static files (one GET wildcard) are web/static.test.ts's matter.
  const t = useApp(sqlite, { webDist: '/nonexistent/esl-console' });

  it('documents every POST route, console and integration, and no route that does not exist', async () => {
    const served = routesOf(t().app.printRoutes({ commonPrefix: false }));
    const posts = served.filter((r) => r.startsWith('POST ')).map((r) => r.slice('POST '.length));
    expect(posts).toContain('/api/mgr/product/export');
    expect(posts).toContain('/api/mgr/product/import');
    expect(posts.some((p) => p.startsWith('/open/v1/'))).toBe(true);
    const doc = (await t().app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(
      documented
        .filter((d) => d.startsWith('POST '))
        .map((d) => d.slice(5))
        .sort(),
    ).toEqual([...posts].sort());
    // The rest the server serves is pages and files, not calls: the console, the documents
    // themselves, uploads, fonts and the notice socket (docs/SECURITY.md).
    const others = served.filter((r) => !r.startsWith('POST ') && !r.startsWith('HEAD '));
    expect(others.every((r) => r.startsWith('GET '))).toBe(true);
    expect(others.map((r) => r.slice(4)).sort()).toEqual(
      [
        '/api/docs',
        '/api/openapi.json',
        '/uploads/avatars/:key',
        '/uploads/templates/:file',
        '/fonts/:file',
        '/sys/eslnotice',
        // Prometheus text for the operator's monitoring (docs/DEPLOY.md): loopback or METRICS_TOKEN.
        '/metrics',
        // Health probes for load balancers and orchestrators (docs/DEPLOY.md, "Health probes").
        '/healthz',
        '/livez',
        '/readyz',
      ].sort(),
    );
  });
});
