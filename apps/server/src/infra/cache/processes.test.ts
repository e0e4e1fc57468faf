import type { InfoData, Store } from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { testDatabases } from '../../test/databases';
import { buildWorld, login } from '../../test/factories';
import { callApi, useApp } from '../../test/harness';
import { testConfig } from '../config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';

/** Polls `read` until `done` holds or `ms` pass; answers the last value read. */
async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 3000): Promise<T> {
  const until = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 25));
    value = await read();
  }
  return value;
}

const storeNames = async (app: FastifyInstance, token: string) =>
  (await callApi<Store[]>(app, '/mgr/station/list', { page: 1, limit: 20 }, { token })).data.map((s) => s.name);

describe.each(await testDatabases())('the read cache in one process on $name', (db) => {
  const t = useApp(db);

  it('serves repeated reads from the cache and shows a change at once', async () => {
    const { tokens, stores } = await buildWorld(t().app);
    const cache = t().app.services.cache;
    await eventually(async () => cache.enabled, Boolean);
    await storeNames(t().app, tokens.admin);
    const info = await t().call<InfoData>('/user/info', {}, { token: tokens.admin });
    expect(info.data.shop.map((s) => s.id)).toEqual(stores.map((s) => s.id));
    expect(cache.size).toBeGreaterThan(0);

    const renamed = await t().call(
      '/mgr/station/alert',
      { id: stores[0].id, name: 'Renamed' },
      { token: tokens.admin },
    );
    expect(renamed.code).toBe(0);
    expect(await storeNames(t().app, tokens.admin)).toContain('Renamed');
    const after = await t().call<InfoData>('/user/info', {}, { token: tokens.admin });
    expect(after.data.shop.find((s) => s.id === stores[0].id)?.name).toBe('Renamed');

    expect((await t().call('/user/logout', {}, { token: tokens.admin })).code).toBe(0);
    expect((await t().call('/user/info', {}, { token: tokens.admin })).code).toBe(800);
  });

  it('a user losing a store no longer reaches it, on the next request', async () => {
    const { tokens, stores, users } = await buildWorld(t().app);
    expect((await t().call<InfoData>('/user/info', {}, { token: tokens.clerk })).data.shop).toHaveLength(1);
    const edit = await t().call(
      '/user/alertusr',
      { id: users.clerk.id, shops: [stores[1].id] },
      { token: tokens.admin },
    );
    expect(edit.code, edit.msg).toBe(0);
    const shops = (await t().call<InfoData>('/user/info', {}, { token: tokens.clerk })).data.shop;
    expect(shops.map((s) => s.id)).toEqual([stores[1].id]);
  });
});

describe.each(await testDatabases())('READ_CACHE=off on $name', (db) => {
  const t = useApp(db, { readCache: false });

  it('reads the database on every request', async () => {
    const { tokens, stores } = await buildWorld(t().app);
    await storeNames(t().app, tokens.admin);
    await t().call('/user/info', {}, { token: tokens.admin });
    expect(t().app.services.cache.size).toBe(0);
    // A write behind the server's back shows at once: nothing was kept.
    await t().app.services.db.updateTable('stores').set({ name: 'Behind' }).where('id', '=', stores[0].id).execute();
    expect(await storeNames(t().app, tokens.admin)).toContain('Behind');
  });
});

const postgres = (await testDatabases()).find((d) => d.name === 'postgres');

describe.runIf(postgres)('the read cache across two server processes on one PostgreSQL database', () => {
  let a: FastifyInstance;
  let b: FastifyInstance;
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    if (!postgres) return;
    const created = await postgres.create();
    drop = created.drop;
    const start = async () => {
      const config = testConfig({ databaseUrl: created.url });
      const database = openDatabase(config.databaseUrl);
      await migrateToLatest(database);
      const app = await buildApp(config, database);
      await app.ready();
      return app;
    };
    a = await start();
    b = await start();
    await eventually(async () => a.services.cache.enabled && b.services.cache.enabled, Boolean);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await drop();
  });

  it('a store changed through one process shows in the other', async () => {
    const { tokens, stores } = await buildWorld(a);
    expect(await storeNames(a, tokens.admin)).not.toContain('Changed elsewhere');
    expect(a.services.cache.size).toBeGreaterThan(0);
    const res = await callApi(
      b,
      '/mgr/station/alert',
      { id: stores[1].id, name: 'Changed elsewhere' },
      { token: tokens.admin },
    );
    expect(res.code, res.msg).toBe(0);
    const names = await eventually(
      () => storeNames(a, tokens.admin),
      (n) => n.includes('Changed elsewhere'),
    );
    expect(names).toContain('Changed elsewhere');
  });

  it('a session ended through one process is refused by the other', async () => {
    const { users } = await buildWorld(a);
    const token = await login(a, users.manager.username);
    expect((await callApi(a, '/user/info', {}, { token })).code).toBe(0);
    expect((await callApi(b, '/user/logout', {}, { token })).code).toBe(0);
    const res = await eventually(
      () => callApi(a, '/user/info', {}, { token }),
      (r) => r.code === 800,
    );
    expect(res.code).toBe(800);
  });
});
