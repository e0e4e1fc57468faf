import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import type { Delivery } from '../delivery/wiring';
import { testConfig } from '../infra/config';
import { openDatabase, sqliteHandleOf } from '../infra/db/database';
import { migrateToLatest } from '../infra/db/migrate';
import { testDatabases } from '../test/databases';
import { useApp } from '../test/harness';
import { createHealth } from './health';

// Issue 26 item 2: probes a load balancer can trust. A built console is present, so a probe that
// fell through to the history fallback would answer 200 with its HTML.
const dist = mkdtempSync(join(tmpdir(), 'esl-health-dist-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title><div id="root"></div>');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const probe = async (app: FastifyInstance, url: string, method: 'GET' | 'HEAD' = 'GET') => {
  const res = await app.inject({ method, url });
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-store');
  if (method === 'GET') expect(res.body).not.toMatch(/<html|<!doctype/i);
  return {
    status: res.statusCode,
    body: method === 'GET' ? (res.json() as { status: string; reason?: string }) : null,
  };
};

describe.each(await testDatabases())('health probes on $name', (target) => {
  const t = useApp(target, { webDist: dist });

  it('/healthz and /livez: 200 JSON while the process runs, GET and HEAD', async () => {
    for (const url of ['/healthz', '/livez']) {
      expect(await probe(t().app, url)).toEqual({ status: 200, body: { status: 'ok' } });
      expect((await probe(t().app, url, 'HEAD')).status).toBe(200);
    }
    // The fallback still serves the console's deep links.
    const page = await t().app.inject({ method: 'GET', url: '/basemgr/esl' });
    expect(page.body).toContain('<title>console</title>');
  });

  it('/readyz: 200 on a migrated, reachable database; 503 naming a pending migration', async () => {
    expect(await probe(t().app, '/readyz')).toEqual({ status: 200, body: { status: 'ready' } });
    const db = t().app.services.db;
    const last = await db
      .selectFrom('kysely_migration' as never)
      .select(['name' as never, 'timestamp' as never])
      .orderBy('name' as never, 'desc')
      .executeTakeFirstOrThrow();
    const { name } = last as { name: string };
    await db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', name as never)
      .execute();
    try {
      expect(await probe(t().app, '/readyz')).toEqual({
        status: 503,
        body: { status: 'unavailable', reason: 'migrations pending: 1' },
      });
    } finally {
      await db
        .insertInto('kysely_migration' as never)
        .values(last as never)
        .execute();
    }
    expect((await probe(t().app, '/readyz')).status).toBe(200);
  });

  it('/readyz: 503 once the drain starts, while /healthz and /livez still answer 200', async () => {
    t().app.health.startDraining();
    expect(await probe(t().app, '/readyz')).toEqual({
      status: 503,
      body: { status: 'unavailable', reason: 'draining' },
    });
    expect((await probe(t().app, '/healthz')).status).toBe(200);
    expect((await probe(t().app, '/livez')).status).toBe(200);
  });

  it('/readyz: 503 when the database goes away, naming no host or error text', async () => {
    const created = await target.create();
    const database = openDatabase(created.url);
    await migrateToLatest(database);
    const app = await buildApp(testConfig({ databaseUrl: created.url, webDist: dist }), database);
    try {
      expect((await probe(app, '/readyz')).status).toBe(200);
      // SQLite: the file's handle is closed; PostgreSQL: the database is dropped under the server.
      if (target.name === 'sqlite') sqliteHandleOf(database.db)?.close();
      else await created.drop();
      expect(await probe(app, '/readyz')).toEqual({
        status: 503,
        body: { status: 'unavailable', reason: 'database unreachable' },
      });
      expect(await probe(app, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    } finally {
      await app.close().catch(() => {});
      await created.drop();
    }
  });
});

describe('readiness with delivery on', () => {
  it('is unready while the broker connection is down', async () => {
    const database = openDatabase('sqlite::memory:');
    await migrateToLatest(database);
    let connected = false;
    const delivery = { port: { connected: () => connected } } as unknown as Delivery;
    const health = createHealth({ database, delivery: () => delivery, log: () => {} });
    try {
      expect(await health.unready()).toBe('broker not connected');
      connected = true;
      expect(await health.unready()).toBeNull();
    } finally {
      await database.close();
    }
  });
});
