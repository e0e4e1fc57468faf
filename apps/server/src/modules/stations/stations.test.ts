import {
  type AddStationData,
  describeTarget,
  ErrorCode,
  hasPermission,
  type Station,
  TENANT_ROLES,
} from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../infra/lib/random';
import { buildShop, buildStation, buildStorelessAdmin, snapshot } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';

describe.each(await testDatabases())('base stations on $name', (db) => {
  const t = useApp(db);

  it('adds a station with a one-time secret, lists it with empty runtime figures, and logs the change', async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    const token = tokens.admin;
    const added = await t().call<AddStationData>(
      '/mgr/ap/add',
      { sn: ' ap-0001 ', name: '收银台 AP', module: 'M1' },
      { token },
    );
    expect(added.code, added.msg).toBe(0);
    expect(added.data).toMatchObject({ sn: 'AP-0001', name: '收银台 AP', module: 'M1', online: false, cpu: null });
    expect(added.data.secret).toMatch(/^[0-9a-f]{48}$/);

    const row = await t()
      .app.services.db.selectFrom('stations')
      .selectAll()
      .where('id', '=', added.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tenant_id: tenant.id, store_id: store.id, secret_hash: sha256Hex(added.data.secret) });
    expect(JSON.stringify(row)).not.toContain(added.data.secret);

    const list = await t().call<Station[]>('/mgr/ap/runtimelist', {}, { token });
    expect(list.count).toBe(1);
    expect(list.data[0]).toEqual({
      ...added.data,
      secret: undefined,
      login: undefined,
      createdAt: added.data.createdAt,
    });
    expect(list.data[0]).not.toHaveProperty('secret');
    expect(list.data[0]).toMatchObject({ lastHeartbeat: null, serverPort: null, ip: '', firmware: '' });

    const ops = await t()
      .app.services.db.selectFrom('op_logs')
      .select(['call', 'code', 'store_id', 'target'])
      .where('tenant_id', '=', tenant.id)
      .where('call', '=', '/mgr/ap/add')
      .execute();
    expect(ops.map((o) => ({ ...o, target: describeTarget(o.target, 'en') }))).toEqual([
      { call: '/mgr/ap/add', code: 0, store_id: store.id, target: 'base station AP-0001' },
    ]);
  });

  it('keeps serial numbers unique on the whole platform, never naming the tenant that holds one', async () => {
    const a = await buildShop(t().app);
    const b = await buildShop(t().app);
    expect((await t().call('/mgr/ap/add', { sn: 'SAME1' }, { token: a.tokens.admin })).code).toBe(0);
    const again = await t().call('/mgr/ap/add', { sn: 'same1' }, { token: a.otherStoreAdmin });
    expect(again).toMatchObject({ code: ErrorCode.CONFLICT, msg: 'Already exists: SAME1' });
    const elsewhere = await t().call('/mgr/ap/add', { sn: 'SAME1' }, { token: b.tokens.admin });
    expect(elsewhere).toEqual({ code: ErrorCode.CONFLICT, msg: 'Already exists: SAME1', data: null, status: 200 });
    expect(elsewhere.msg).not.toContain(a.tenant.name);
    expect(await snapshot(t().app, 'stations', b.store.id)).toEqual([]);
  });

  it('validates the serial number', async () => {
    const { tokens } = await buildShop(t().app);
    const token = tokens.admin;
    expect((await t().call('/mgr/ap/add', {}, { token })).msg).toBe('Serial number: cannot be empty');
    expect((await t().call('/mgr/ap/add', { sn: 'has space' }, { token })).msg).toBe(
      'Serial number: has the wrong format',
    );
    expect((await t().call('/mgr/ap/add', { sn: 'A'.repeat(33) }, { token })).msg).toBe('Serial number: is too long');
    expect((await t().call('/mgr/ap/add', { sn: 'A1', name: 'a\nb' }, { token })).msg).toBe(
      'Name: no line breaks allowed',
    );
  });

  it('pages and filters the runtime list within the current store', async () => {
    const { tokens, store, otherStore, tenant } = await buildShop(t().app);
    const at = { tenantId: tenant.id, storeId: store.id };
    for (let i = 0; i < 5; i++) await buildStation(t().app, at, { sn: `SHOP${i}` });
    await buildStation(t().app, { tenantId: tenant.id, storeId: otherStore.id }, { sn: 'ELSEWHERE' });
    await t().app.services.db.updateTable('stations').set({ online: 1 }).where('sn', '=', 'SHOP3').execute();
    const token = tokens.manager;
    const page = await t().call<Station[]>('/mgr/ap/runtimelist', { page: 2, limit: 2 }, { token });
    expect(page.count).toBe(5);
    expect(page.data.map((s) => s.sn)).toEqual(['SHOP2', 'SHOP1']);
    const online = await t().call<Station[]>('/mgr/ap/runtimelist', { online: true }, { token });
    expect(online.data.map((s) => [s.sn, s.online])).toEqual([['SHOP3', true]]);
    const text = await t().call<Station[]>('/mgr/ap/runtimelist', { text: 'shop4' }, { token });
    expect(text.data.map((s) => s.sn)).toEqual(['SHOP4']);
  });

  it('deletes all or nothing, only in the current store and tenant', async () => {
    const a = await buildShop(t().app);
    const b = await buildWorld(t().app);
    const mine = await buildStation(t().app, { tenantId: a.tenant.id, storeId: a.store.id });
    const otherStore = await buildStation(t().app, { tenantId: a.tenant.id, storeId: a.otherStore.id });
    const otherTenant = await buildStation(t().app, { tenantId: b.tenant.id, storeId: b.stores[0].id });
    const before = [
      await snapshot(t().app, 'stations', a.store.id),
      await snapshot(t().app, 'stations', a.otherStore.id),
      await snapshot(t().app, 'stations', b.stores[0].id),
    ];
    const token = a.tokens.admin;
    for (const ids of [[mine.id, otherStore.id], [otherTenant.id], [mine.id, 999999]]) {
      expect((await t().call('/mgr/ap/delete', { ids }, { token })).code).toBe(ErrorCode.NOT_FOUND);
    }
    expect((await t().call('/mgr/ap/opencmdwindow', { id: otherTenant.id }, { token })).code).toBe(ErrorCode.NOT_FOUND);
    const after = [
      await snapshot(t().app, 'stations', a.store.id),
      await snapshot(t().app, 'stations', a.otherStore.id),
      await snapshot(t().app, 'stations', b.stores[0].id),
    ];
    expect(after).toEqual(before);
    const requests = await t().app.services.db.selectFrom('device_requests').selectAll().execute();
    expect(requests.filter((r) => r.station_id === otherTenant.id)).toEqual([]);

    const del = await t().call('/mgr/ap/delete', { ids: [mine.id, mine.id] }, { token });
    expect(del).toMatchObject({ code: 0, data: { deleted: 1 } });
    expect(await snapshot(t().app, 'stations', a.store.id)).toEqual([]);
  });

  it('refuses a command window on a station that is not connected, and logs the attempt', async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    const station = await buildStation(t().app, { tenantId: tenant.id, storeId: store.id }, { sn: 'CMD1' });
    const res = await t().call('/mgr/ap/opencmdwindow', { id: station.id }, { token: tokens.manager, lang: 'zh-CN' });
    expect(res).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'ID：基站不在线' });
    const ops = await t()
      .app.services.db.selectFrom('op_logs')
      .select(['call', 'code', 'target'])
      .where('tenant_id', '=', tenant.id)
      .where('call', '=', '/mgr/ap/opencmdwindow')
      .execute();
    expect(ops.map((o) => [o.code, describeTarget(o.target, 'en')])).toEqual([
      [ErrorCode.VALIDATION, 'base station CMD1'],
    ]);
  });

  it('answers STORE_NOT_SET without a current store', async () => {
    const { token } = await buildStorelessAdmin(t().app);
    const tokens = { admin: token };
    for (const [path, body] of [
      ['/mgr/ap/add', { sn: 'X1' }],
      ['/mgr/ap/delete', { ids: [1] }],
      ['/mgr/ap/runtimelist', {}],
      ['/mgr/ap/opencmdwindow', { id: 1 }],
      ['/mgr/ap/cmd', { id: 1, session: 'abc', line: 'status' }],
      ['/mgr/ap/setconfig', { id: 1, config: {} }],
    ] as const) {
      const res = await t().call(path, body, { token: tokens.admin });
      expect(res, path).toMatchObject({ code: ErrorCode.STORE_NOT_SET, msg: 'Please set store first' });
    }
    const zh = await t().call('/mgr/ap/runtimelist', {}, { token: tokens.admin, lang: 'zh-CN' });
    expect(zh.msg).toBe('请先设置门店');
  });

  it('gives each role exactly its station permissions', async () => {
    const { tokens, store, tenant } = await buildShop(t().app);
    const station = await buildStation(t().app, { tenantId: tenant.id, storeId: store.id });
    for (const role of TENANT_ROLES) {
      const token = tokens[role];
      // The station is not connected: a permitted command window is refused as offline, not forbidden.
      const cases = [
        ['/mgr/ap/runtimelist', {}, 'station.read', 0],
        ['/mgr/ap/add', { sn: `R${role}` }, 'station.write', 0],
        ['/mgr/ap/setconfig', { id: station.id, config: { heartbeatS: 60 } }, 'station.write', 0],
        ['/mgr/ap/edit', { id: station.id, name: `by ${role}` }, 'station.write', 0],
        ['/mgr/ap/testap', { apUrl: 'http://127.0.0.1:1' }, 'station.write', 0],
        ['/mgr/ap/opencmdwindow', { id: station.id }, 'station.operate', ErrorCode.VALIDATION],
        ['/mgr/ap/cmd', { id: station.id, session: 'abc', line: 'status' }, 'station.operate', ErrorCode.VALIDATION],
      ] as const;
      for (const [path, body, permission, allowed] of cases) {
        const res = await t().call(path, body, { token });
        if (hasPermission([role], permission)) expect(res.code, `${role} ${path}`).toBe(allowed);
        else expect(res.code, `${role} ${path}`).toBe(ErrorCode.FORBIDDEN);
      }
    }
    expect((await t().call('/mgr/ap/delete', { ids: [station.id] }, { token: tokens.clerk })).code).toBe(
      ErrorCode.FORBIDDEN,
    );
    expect(await snapshot(t().app, 'stations', store.id)).toHaveLength(1 + 2);
  });
});
