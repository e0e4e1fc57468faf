import { describeTarget, InfoData, TENANT_ROLES } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { actingAs, switchableRoles } from '../../api/roles';
import { sha256Hex } from '../../infra/lib/random';
import { testDatabases } from '../../test/databases';
import { buildOperator, buildStore, buildTenant, buildUser, buildWorld, login } from '../../test/factories';
import { useApp } from '../../test/harness';

describe('role switching rules', () => {
  it('lets a user act as a role they hold, an admin as any tenant role, a platform operator as none', () => {
    expect(switchableRoles(['clerk'])).toEqual(['clerk']);
    expect(switchableRoles(['stock', 'editor'])).toEqual(['editor', 'stock']);
    expect(switchableRoles(['admin'])).toEqual([...TENANT_ROLES]);
    expect(switchableRoles(['superadmin'])).toEqual([]);
  });

  it('acts as the stored role only while the user may, otherwise as every role held', () => {
    expect(actingAs(['admin'], 'clerk')).toEqual({ roles: ['clerk'], acting: 'clerk' });
    expect(actingAs(['editor', 'clerk'], null)).toEqual({ roles: ['editor', 'clerk'], acting: null });
    expect(actingAs(['clerk'], 'editor')).toEqual({ roles: ['clerk'], acting: null });
    expect(actingAs(['admin'], 'superadmin')).toEqual({ roles: ['admin'], acting: null });
    expect(actingAs(['admin'], 'boss')).toEqual({ roles: ['admin'], acting: null });
  });
});

describe.each(await testDatabases())('role change on $name', (db) => {
  const t = useApp(db);

  const sessionsOf = (userId: number) =>
    t().app.services.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();

  const changeRole = (token: string, role: string) =>
    t().call<{ token: string }>('/user/changerole', { role }, { token });

  /** A tenant with two stores and an admin assigned only the first (the assignment counts once acting as another role). */
  async function adminWithOneStore() {
    const tenant = await buildTenant(t().app);
    const a = await buildStore(t().app, tenant.id);
    const b = await buildStore(t().app, tenant.id);
    const user = await buildUser(t().app, { tenantId: tenant.id, roles: ['admin'], stores: [a.id] });
    return { tenant, stores: [a, b], user, token: await login(t().app, user.username) };
  }

  it('answers a derived token stored only as its hash, and revokes the old one (800)', async () => {
    const { user, token } = await adminWithOneStore();
    const res = await changeRole(token, 'clerk');
    expect(res.code, res.msg).toBe(0);
    const derived = res.data.token;
    expect(derived).toMatch(/^[0-9a-f]{64}$/);
    expect(derived).not.toBe(token);
    expect((await t().call('/user/info', {}, { token })).code).toBe(800);
    expect((await t().call('/user/info', {}, { token: derived })).code).toBe(0);
    const rows = await sessionsOf(user.id);
    expect(rows.map((r) => [r.id, r.role])).toEqual([[sha256Hex(derived), 'clerk']]);
    expect(Number(rows[0].expires_at)).toBe(t().clock.time + 12 * 3_600_000);
  });

  it('acting as a clerk loses admin permissions and narrows the stores to the assigned ones', async () => {
    const { stores, token } = await adminWithOneStore();
    expect((await t().call('/user/UserList', { page: 1, limit: 20 }, { token })).code).toBe(0);
    // The admin's current store is one a clerk may not see: the session moves to one it may.
    expect((await t().call('/user/setcurrshop', { curshop: stores[1].id }, { token })).code).toBe(0);
    const clerk = (await changeRole(token, 'clerk')).data.token;

    expect((await t().call('/user/UserList', { page: 1, limit: 20 }, { token: clerk })).code).toBe(1003);
    expect((await t().call('/mgr/station/add', { name: 'N', code: 'N1' }, { token: clerk })).code).toBe(1003);
    const list = await t().call<{ id: number }[]>('/mgr/station/list', { page: 1, limit: 20 }, { token: clerk });
    expect(list.code).toBe(0);
    expect(list.data.map((s) => s.id)).toEqual([stores[0].id]);
    const info = await t().call<InfoData>('/user/info', {}, { token: clerk });
    expect(InfoData.parse(info.data)).toEqual(info.data);
    expect(info.data.roles).toEqual(['clerk']);
    expect(info.data.permissions).not.toContain('user.read');
    expect(info.data.shop.map((s) => s.id)).toEqual([stores[0].id]);
    expect(info.data.curshop?.id).toBe(stores[0].id);
    expect((await t().call('/user/setcurrshop', { curshop: stores[1].id }, { token: clerk })).code).toBe(1002);
  });

  it("'' restores all of the user's roles, keeping the current store", async () => {
    const { stores, user, token } = await adminWithOneStore();
    const clerk = (await changeRole(token, 'clerk')).data.token;
    const back = await changeRole(clerk, '');
    expect(back.code, back.msg).toBe(0);
    const all = back.data.token;
    expect((await t().call('/user/info', {}, { token: clerk })).code).toBe(800);
    const info = await t().call<InfoData>('/user/info', {}, { token: all });
    expect(info.data.roles).toEqual(['admin']);
    expect(info.data.role).toBe('');
    expect(info.data.shop.map((s) => s.id)).toEqual(stores.map((s) => s.id));
    expect(info.data.curshop?.id).toBe(stores[0].id);
    expect((await t().call('/user/UserList', { page: 1, limit: 20 }, { token: all })).code).toBe(0);
    expect((await sessionsOf(user.id)).map((r) => r.role)).toEqual([null]);
  });

  it('refuses a role the user may not act as, naming the field, and changes nothing', async () => {
    const tenant = await buildTenant(t().app);
    const store = await buildStore(t().app, tenant.id);
    const user = await buildUser(t().app, { tenantId: tenant.id, roles: ['editor', 'clerk'], stores: [store.id] });
    const token = await login(t().app, user.username);
    const before = await sessionsOf(user.id);

    for (const role of ['admin', 'manager', 'superadmin']) {
      const res = await changeRole(token, role);
      expect(res.code, role).toBe(1001);
      expect(res.msg).toBe('Role: is not a role you may act as');
    }
    const unknown = await changeRole(token, 'boss');
    expect(unknown.code).toBe(1001);
    expect(unknown.msg).toBe('Role: has the wrong format');
    const zh = await t().call('/user/changerole', { role: 'admin' }, { token, lang: 'zh-CN' });
    expect(zh.msg).toContain('不是你可以使用的角色');

    expect(await sessionsOf(user.id)).toEqual(before);
    const info = await t().call<InfoData>('/user/info', {}, { token });
    expect(info.data.roles).toEqual(['editor', 'clerk']);
    expect(info.data.switchable).toEqual(['editor', 'clerk']);

    const editor = await changeRole(token, 'editor');
    expect(editor.code).toBe(0);
    const acting = await t().call<InfoData>('/user/info', {}, { token: editor.data.token });
    expect(acting.data.roles).toEqual(['editor']);
    expect(acting.data.permissions).toContain('template.write');
  });

  it('refuses the platform operator with 1003 and leaves its session alone', async () => {
    const op = await buildOperator(t().app);
    for (const role of ['', 'admin', 'superadmin']) {
      expect((await changeRole(op.token, role)).code, role).toBe(1003);
    }
    expect((await t().call('/saas/sa/getlist', { page: 1, limit: 20 }, { token: op.token })).code).toBe(0);
    expect((await sessionsOf(op.user.id)).map((r) => r.role)).toEqual([null]);
  });

  it('writes an operation-log row for each change and each refusal', async () => {
    const { tenant, users, tokens } = await buildWorld(t().app);
    const ok = await changeRole(tokens.admin, 'manager');
    expect(ok.code).toBe(0);
    const refused = await changeRole(tokens.clerk, 'admin');
    expect(refused.code).toBe(1001);
    const rows = await t()
      .app.services.db.selectFrom('op_logs')
      .select(['user_id', 'tenant_id', 'target', 'code'])
      .where('call', '=', '/user/changerole')
      .where('tenant_id', '=', tenant.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => ({ ...r, target: describeTarget(r.target, 'en') }))).toEqual([
      { user_id: users.admin.id, tenant_id: tenant.id, target: 'role store manager', code: 0 },
      { user_id: users.clerk.id, tenant_id: tenant.id, target: 'role administrator', code: 1001 },
    ]);
  });

  it('reports the acting role and the switchable roles in /user/info', async () => {
    const { tokens } = await buildWorld(t().app);
    const admin = await t().call<InfoData>('/user/info', {}, { token: tokens.admin });
    expect(admin.data.role).toBe('');
    expect(admin.data.switchable).toEqual([...TENANT_ROLES]);
    const stock = (await changeRole(tokens.admin, 'stock')).data.token;
    const acting = await t().call<InfoData>('/user/info', {}, { token: stock });
    expect(acting.data.role).toBe('stock');
    expect(acting.data.roles).toEqual(['stock']);
    expect(acting.data.switchable).toEqual([...TENANT_ROLES]);
    const clerk = await t().call<InfoData>('/user/info', {}, { token: tokens.clerk });
    expect(clerk.data.switchable).toEqual(['clerk']);
    expect(clerk.data.role).toBe('');
    const op = await buildOperator(t().app);
    const operator = await t().call<InfoData>('/user/info', {}, { token: op.token });
    expect(operator.data.switchable).toEqual([]);
  });

  it('falls back to the roles held when the user loses the role the session acts as', async () => {
    const tenant = await buildTenant(t().app);
    const store = await buildStore(t().app, tenant.id);
    const user = await buildUser(t().app, { tenantId: tenant.id, roles: ['editor', 'clerk'], stores: [store.id] });
    const editor = (await changeRole(await login(t().app, user.username), 'editor')).data.token;
    await t().app.services.db.updateTable('users').set({ roles: 'clerk' }).where('id', '=', user.id).execute();
    const info = await t().call<InfoData>('/user/info', {}, { token: editor });
    expect(info.data.roles).toEqual(['clerk']);
    expect(info.data.role).toBe('');
    expect(info.data.permissions).not.toContain('template.read');
  });
});
