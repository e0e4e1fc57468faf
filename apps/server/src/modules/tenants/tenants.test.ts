import type { Tenant, TenantBaseInfo } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { clientDigest } from '../../auth/passwords';
import { testDatabases } from '../../test/databases';
import { buildOperator, buildWorld, login } from '../../test/factories';
import { useApp } from '../../test/harness';

const PLATFORM = [
  ['/saas/sa/getlist', {}],
  ['/saas/sa/addtenant', { name: 'T', account: 'someone', sapwd: clientDigest('x') }],
  ['/saas/sa/renewcksk', { id: 1 }],
  ['/saas/sa/resetaccountpwd', { id: 1, pwd: clientDigest('x') }],
  ['/saas/sa/sadeltenant', { ids: [1] }],
  ['/saas/sa/getuploadverlist', {}],
] as const;

describe.each(await testDatabases())('tenants on $name', (db) => {
  const t = useApp(db);

  it('lets the platform operator add a tenant whose administrator can log in and manage it', async () => {
    const op = await buildOperator(t().app);
    const added = await t().call<Tenant>(
      '/saas/sa/addtenant',
      { name: 'Fresh Mart', company: 'Fresh Mart Ltd', account: 'freshadmin', sapwd: clientDigest('fresh-1') },
      { token: op.token },
    );
    expect(added.code, added.msg).toBe(0);
    expect(added.data).toMatchObject({ name: 'Fresh Mart', account: 'freshadmin', storeCount: 0, userCount: 1 });

    const token = await login(t().app, 'freshadmin', 'fresh-1');
    const base = await t().call<TenantBaseInfo>('/user/getbaseinfo', {}, { token });
    expect(base.data).toMatchObject({ id: added.data.id, name: 'Fresh Mart', ck: added.data.ck });
    expect(base.data.sk).toMatch(/^[0-9a-f]{64}$/);

    const list = await t().call<Tenant[]>('/saas/sa/getlist', { name: 'fresh' }, { token: op.token });
    expect(list.data.map((x) => x.id)).toEqual([added.data.id]);

    const renewed = await t().call<{ ck: string; sk: string }>(
      '/saas/sa/renewcksk',
      { id: added.data.id },
      { token: op.token },
    );
    expect(renewed.data.ck).not.toBe(added.data.ck);

    const reset = await t().call(
      '/saas/sa/resetaccountpwd',
      { id: added.data.id, pwd: clientDigest('fresh-2') },
      { token: op.token },
    );
    expect(reset.code).toBe(0);
    expect((await t().call('/user/info', {}, { token })).code).toBe(800);
    const fresh = await login(t().app, 'freshadmin', 'fresh-2');

    const del = await t().call('/saas/sa/sadeltenant', { ids: [added.data.id] }, { token: op.token });
    expect(del.data).toEqual({ deleted: 1 });
    expect((await t().call('/user/info', {}, { token: fresh })).code).toBe(800);
    const users = await t()
      .app.services.db.selectFrom('users')
      .select('id')
      .where('tenant_id', '=', added.data.id)
      .execute();
    expect(users).toEqual([]);
  });

  it('deletes a tenant with all its data, and refuses a list with an unknown id', async () => {
    const op = await buildOperator(t().app);
    const w = await buildWorld(t().app);
    await t().call('/mgr/station/setparame', { id: w.stores[0].id, params: {} }, { token: w.tokens.admin });
    const refused = await t().call('/saas/sa/sadeltenant', { ids: [w.tenant.id, 999_999] }, { token: op.token });
    expect(refused.code).toBe(1002);
    expect((await t().call('/user/info', {}, { token: w.tokens.admin })).code).toBe(0);
    const del = await t().call('/saas/sa/sadeltenant', { ids: [w.tenant.id] }, { token: op.token });
    expect(del.code).toBe(0);
    const { db: kdb } = t().app.services;
    for (const table of ['stores', 'users', 'user_stores', 'store_params', 'op_logs', 'sessions'] as const) {
      const rows = await kdb.selectFrom(table).select('tenant_id').where('tenant_id', '=', w.tenant.id).execute();
      expect(rows, table).toEqual([]);
    }
  });

  it('lets only the platform operator reach /saas/sa/*', async () => {
    const w = await buildWorld(t().app);
    for (const role of ['admin', 'editor', 'manager', 'clerk', 'stock'] as const) {
      for (const [path, body] of PLATFORM) {
        const res = await t().call(path, body, { token: w.tokens[role] });
        expect(res.code, `${role} ${path}`).toBe(1003);
      }
    }
    const tenants = await t()
      .app.services.db.selectFrom('users')
      .select('id')
      .where('username', '=', 'someone')
      .execute();
    expect(tenants).toEqual([]);
    const op = await buildOperator(t().app);
    const list = await t().call('/saas/sa/getlist', {}, { token: op.token });
    expect(list.code).toBe(0);
    const firmware = await t().call('/saas/sa/getuploadverlist', {}, { token: op.token });
    expect(firmware).toMatchObject({ code: 0, data: [], count: 0 });
  });

  it('keeps the platform operator out of tenant calls', async () => {
    const op = await buildOperator(t().app);
    for (const path of ['/mgr/station/list', '/user/UserList', '/user/getbaseinfo', '/log/taglog/oplist']) {
      expect((await t().call(path, {}, { token: op.token })).code, path).toBe(1003);
    }
    const info = await t().call<{ roles: string[]; shop: unknown[]; tenant: null }>(
      '/user/info',
      {},
      { token: op.token },
    );
    expect(info.data).toMatchObject({ roles: ['superadmin'], shop: [], tenant: null });
  });

  it("changes only the caller's own tenant settings", async () => {
    const a = await buildWorld(t().app);
    const b = await buildWorld(t().app);
    const token = a.tokens.admin;
    const appid = await t().call<TenantBaseInfo>('/user/alertappid', { appid: 'wx123' }, { token });
    expect(appid.data).toMatchObject({ id: a.tenant.id, appid: 'wx123' });
    const info = await t().call<TenantBaseInfo>(
      '/user/alerttenantinfo',
      { id: b.tenant.id, name: 'Renamed' },
      { token },
    );
    expect(info.data).toMatchObject({ id: a.tenant.id, name: 'Renamed' });
    const keys = await t().call<{ ck: string }>('/user/recreatecksk', {}, { token });
    expect(keys.data.ck).not.toBe(a.tenant.ck);
    const other = await t().app.services.db.selectFrom('tenants').selectAll().where('id', '=', b.tenant.id).execute();
    expect(other[0]).toEqual(b.tenant);
    for (const role of ['editor', 'manager', 'clerk', 'stock'] as const) {
      expect((await t().call('/user/getbaseinfo', {}, { token: a.tokens[role] })).code).toBe(1003);
    }
  });
});
