import type { OpLog, SysLog } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { writeSysLog } from '../../infra/audit/syslog';
import { testDatabases } from '../../test/databases';
import { buildOperator, buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';

describe.each(await testDatabases())('logs on $name', (db) => {
  const t = useApp(db);

  it('gives a store-scoped reader only their stores’ operation-log rows (and their own store-less ones)', async () => {
    const { tokens, stores, users } = await buildWorld(t().app);
    // The administrator works in both stores; the manager is assigned to the first only.
    for (const store of stores) {
      await t().call('/user/setcurrshop', { curshop: store.id }, { token: tokens.admin });
      await t().call('/mgr/station/alert', { id: store.id, remark: 'x' }, { token: tokens.admin });
    }
    await t().call('/mgr/station/add', { name: '', code: 'BAD' }, { token: tokens.admin });
    const all = await t().call<OpLog[]>('/log/taglog/oplist', { limit: 100 }, { token: tokens.admin });
    expect(all.data.some((r) => r.storeId === stores[1].id)).toBe(true);
    const mine = await t().call<OpLog[]>('/log/taglog/oplist', { limit: 100 }, { token: tokens.manager });
    expect(mine.code, mine.msg).toBe(0);
    expect(mine.data.length).toBeGreaterThan(0);
    expect(mine.count).toBe(mine.data.length);
    expect(
      mine.data.every(
        (r) => r.storeId === stores[0].id || (r.storeId === null && r.username === users.manager.username),
      ),
    ).toBe(true);
    const other = await t().call<OpLog[]>(
      '/log/taglog/oplist',
      { limit: 100, storeId: stores[1].id },
      { token: tokens.manager },
    );
    expect(other.data).toEqual([]);
    expect(other.count).toBe(0);
  });

  it('gives a store-scoped reader only their stores’ system-log rows, each named with its store (issue 25)', async () => {
    const { tokens, stores, tenant, users } = await buildWorld(t().app);
    // A station in each store; a station's rows belong to its store, looked up as they are written.
    const sns: string[] = [];
    for (const [i, store] of stores.entries()) {
      await t().call('/user/setcurrshop', { curshop: store.id }, { token: tokens.admin });
      const added = await t().call<{ sn: string }>('/mgr/ap/add', { sn: `LOGS${i}` }, { token: tokens.admin });
      expect(added.code, added.msg).toBe(0);
      sns.push(added.data.sn);
    }
    for (const sn of sns) {
      await writeSysLog(t().app.services, {
        tenantId: tenant.id,
        stationSn: sn,
        level: 'warn',
        event: 'station.clock_skew',
        message: `station ${sn}: its clock is 90 s ahead`,
        time: t().clock.time,
      });
    }
    // A tenant-wide row (no store): the administrators'.
    await writeSysLog(t().app.services, {
      tenantId: tenant.id,
      level: 'info',
      event: 'firmware.queued',
      message: 'tenant-wide',
      time: t().clock.time,
    });
    const all = await t().call<SysLog[]>('/log/taglog/syslist', { limit: 100 }, { token: tokens.admin });
    const skew = all.data.filter((r) => r.event === 'station.clock_skew');
    expect(skew.map((r) => [r.storeId, r.storeName])).toEqual([...stores].reverse().map((s) => [s.id, s.name]));
    expect(all.data.some((r) => r.message === 'tenant-wide' && r.storeId === null && r.storeName === '')).toBe(true);
    const byStore = await t().call<SysLog[]>(
      '/log/taglog/syslist',
      { limit: 100, storeId: stores[1].id },
      { token: tokens.admin },
    );
    expect(byStore.data.map((r) => r.storeId)).toEqual([stores[1].id]);

    // The manager is assigned to the first store only: its rows, and of the rows of no store only
    // their own sign-in (not the administrator's, not the clerk's).
    const mine = await t().call<SysLog[]>('/log/taglog/syslist', { limit: 100 }, { token: tokens.manager });
    expect(mine.code, mine.msg).toBe(0);
    expect(mine.data.map((r) => [r.storeId, r.message])).toEqual([
      [stores[0].id, `station ${sns[0]}: its clock is 90 s ahead`],
      [null, `${users.manager.username} signed in from 127.0.0.1`],
    ]);
    expect(mine.count).toBe(2);
    const other = await t().call<SysLog[]>(
      '/log/taglog/syslist',
      { limit: 100, storeId: stores[1].id },
      { token: tokens.manager },
    );
    expect(other.data).toEqual([]);
    expect(other.count).toBe(0);
  });

  it('writes one operation-log row per changing call, refused ones included, with who, where and what', async () => {
    const { tokens, stores, users } = await buildWorld(t().app);
    await t().call('/mgr/station/alert', { id: stores[0].id, remark: 'hello' }, { token: tokens.admin });
    await t().call('/mgr/station/add', { name: 'x', code: 'NOPE' }, { token: tokens.clerk });
    await t().call('/mgr/station/add', { name: '', code: 'BAD' }, { token: tokens.admin });
    await t().call('/mgr/station/list', {}, { token: tokens.admin });
    await t().call('/mgr/station/alert', { id: 1 }); // no session: nobody to name, no row

    const res = await t().call<OpLog[]>('/log/taglog/oplist', { limit: 10 }, { token: tokens.admin });
    expect(res.count).toBe(3);
    const [invalid, refused, done] = res.data;
    expect(done).toMatchObject({
      username: users.admin.username,
      storeId: stores[0].id,
      storeName: stores[0].name,
      call: '/mgr/station/alert',
      operation: 'Update a store',
      target: `store ${stores[0].name}`,
      code: 0,
      ip: '127.0.0.1',
      time: t().clock.time,
    });
    expect(refused).toMatchObject({ username: users.clerk.username, call: '/mgr/station/add', code: 1003 });
    expect(refused.target).toBe('NOPE');
    // The same rows read in Chinese: the operation and the target in the reader's language.
    const zh = await t().call<OpLog[]>('/log/taglog/oplist', { limit: 10 }, { token: tokens.admin, lang: 'zh-CN' });
    expect(zh.data[2]).toMatchObject({ operation: '修改门店', target: `门店 ${stores[0].name}` });
    expect(zh.data[1]).toMatchObject({ operation: '添加门店' });
    expect(invalid).toMatchObject({ code: 1001, msg: 'Name: cannot be empty' });

    const filtered = await t().call<OpLog[]>(
      '/log/taglog/oplist',
      { username: users.clerk.username },
      { token: tokens.admin },
    );
    expect(filtered.data.map((r) => r.id)).toEqual([refused.id]);
  });

  it('shows each tenant only its own rows, whatever filter is sent', async () => {
    const a = await buildWorld(t().app);
    const b = await buildWorld(t().app);
    await t().call('/mgr/station/alert', { id: b.stores[0].id, remark: 'b' }, { token: b.tokens.admin });
    await writeSysLog(t().app.services, {
      tenantId: b.tenant.id,
      level: 'warn',
      event: 'b.only',
      message: 'b',
      time: 1,
    });
    await writeSysLog(t().app.services, { tenantId: null, level: 'info', event: 'platform', message: 'p', time: 2 });
    await writeSysLog(t().app.services, {
      tenantId: a.tenant.id,
      level: 'info',
      event: 'a.only',
      message: 'a',
      time: 3,
    });

    const ops = await t().call<OpLog[]>('/log/taglog/oplist', { storeId: b.stores[0].id }, { token: a.tokens.admin });
    expect(ops).toMatchObject({ code: 0, data: [], count: 0 });
    const all = await t().call<OpLog[]>('/log/taglog/oplist', { limit: 2000 }, { token: a.tokens.admin });
    expect(all.data.every((r) => r.username !== b.users.admin.username)).toBe(true);
    // (The administrators: a store-scoped reader gets only store rows, tested above.)
    const sys = await t().call<SysLog[]>('/log/taglog/syslist', { limit: 2000 }, { token: a.tokens.admin });
    // Besides the sign-ins of the world's users (each logged under its own tenant).
    expect(sys.data.map((r) => r.event).filter((e) => e !== 'login')).toEqual(['a.only']);
    const theirs = await t().call<SysLog[]>('/log/taglog/syslist', { event: 'b.only' }, { token: b.tokens.admin });
    expect(theirs.count).toBe(1);
    const levels = await t().call<SysLog[]>('/log/taglog/syslist', { level: 'error' }, { token: b.tokens.admin });
    expect(levels.count).toBe(0);
  });

  it("reads each system-log row in the reader's language, the event as a word (issue 27)", async () => {
    const { tokens, users, tenant } = await buildWorld(t().app);
    await writeSysLog(t().app.services, {
      tenantId: tenant.id,
      level: 'info',
      event: 'station.online',
      message: 'station DEMO2AP03 online (connected)',
      time: t().clock.time,
    });
    const zh = await t().call<SysLog[]>('/log/taglog/syslist', { limit: 50 }, { token: tokens.admin, lang: 'zh-CN' });
    const online = zh.data.find((r) => r.event === 'station.online');
    expect(online).toMatchObject({ eventName: '基站上线', message: '基站 DEMO2AP03 上线（已连接）' });
    // The sign-in the world made, written by the session service, in Chinese too.
    const login = zh.data.find((r) => r.event === 'login' && r.message.startsWith(users.admin.username));
    expect(login).toMatchObject({ eventName: '登录', message: `${users.admin.username} 从 127.0.0.1 登录` });
    const en = await t().call<SysLog[]>('/log/taglog/syslist', { limit: 50 }, { token: tokens.admin, lang: 'en' });
    expect(en.data.find((r) => r.event === 'station.online')).toMatchObject({
      eventName: 'Station online',
      message: 'station DEMO2AP03 online (connected)',
    });
  });

  it('is readable only with log.read', async () => {
    const { tokens } = await buildWorld(t().app);
    expect((await t().call('/log/taglog/oplist', {}, { token: tokens.clerk })).code).toBe(1003);
    expect((await t().call('/log/taglog/syslist', {}, { token: tokens.stock })).code).toBe(1003);
    expect((await t().call('/log/taglog/syslist', {}, { token: tokens.manager })).code).toBe(0);
  });

  it("gives the platform operator the platform's rows and no tenant's", async () => {
    const a = await buildWorld(t().app);
    const operator = await buildOperator(t().app);
    await writeSysLog(t().app.services, {
      tenantId: a.tenant.id,
      level: 'warn',
      event: 'a.only',
      message: 'a',
      time: 1,
    });
    await writeSysLog(t().app.services, {
      tenantId: null,
      level: 'error',
      event: 'mqtt.auth_failed',
      message: 'p',
      time: 2,
    });
    await t().call('/mgr/station/alert', { id: a.stores[0].id, remark: 'a' }, { token: a.tokens.admin });

    const sys = await t().call<SysLog[]>('/log/taglog/syslist', { limit: 2000 }, { token: operator.token });
    expect(sys.code).toBe(0);
    expect(sys.data.length).toBeGreaterThan(0);
    expect(sys.data.map((r) => r.event)).toContain('mqtt.auth_failed');
    expect(sys.data.map((r) => r.event)).not.toContain('a.only');
    const ops = await t().call<OpLog[]>('/log/taglog/oplist', { limit: 2000 }, { token: operator.token });
    expect(ops.data.every((r) => r.username !== a.users.admin.username)).toBe(true);
    // A tenant's reader never sees the platform's rows.
    const tenants = await t().call<SysLog[]>('/log/taglog/syslist', { limit: 2000 }, { token: a.tokens.admin });
    expect(tenants.data.map((r) => r.event).filter((e) => e !== 'login')).toEqual(['a.only']);
  });
});
