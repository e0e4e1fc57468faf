import type { OpLog, SysLog } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { writeSysLog } from '../../infra/audit/syslog';
import { testDatabases } from '../../test/databases';
import { buildOperator, buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';

describe.each(await testDatabases())('logs on $name', (db) => {
  const t = useApp(db);

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
    const sys = await t().call<SysLog[]>('/log/taglog/syslist', { limit: 2000 }, { token: a.tokens.manager });
    // Besides the sign-ins of the world's users (each logged under its own tenant).
    expect(sys.data.map((r) => r.event).filter((e) => e !== 'login')).toEqual(['a.only']);
    const theirs = await t().call<SysLog[]>('/log/taglog/syslist', { event: 'b.only' }, { token: b.tokens.editor });
    expect(theirs.count).toBe(1);
    const levels = await t().call<SysLog[]>('/log/taglog/syslist', { level: 'error' }, { token: b.tokens.editor });
    expect(levels.count).toBe(0);
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
