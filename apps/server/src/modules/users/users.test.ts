import type { User } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { clientDigest } from '../../infra/lib/passwords';
import { testDatabases } from '../../test/databases';
import { buildWorld, login, PASSWORD } from '../../test/factories';
import { useApp } from '../../test/harness';

const pw = clientDigest('new-pass-1');

describe.each(await testDatabases())('users on $name', (db) => {
  const t = useApp(db);

  it('adds a user who can then log in, lists and filters, alters and deletes', async () => {
    const { tokens, stores } = await buildWorld(t().app);
    const token = tokens.admin;
    const added = await t().call<User>(
      '/user/addusr',
      { username: 'Newbie', name: 'New Bie', password: pw, rpassword: pw, roles: ['clerk'], shops: [stores[1].id] },
      { token },
    );
    expect(added.code, added.msg).toBe(0);
    expect(added.data).toMatchObject({ username: 'newbie', name: 'New Bie', roles: ['clerk'], shops: [stores[1].id] });
    expect(await login(t().app, 'newbie', 'new-pass-1')).toMatch(/^[0-9a-f]{64}$/);

    const list = await t().call<User[]>('/user/UserList', { page: 1, limit: 50 }, { token });
    expect(list.count).toBe(6);
    const byRole = await t().call<User[]>('/user/UserList', { role: 'clerk' }, { token });
    expect(byRole.data.map((u) => u.username).sort()).toContain('newbie');
    expect(byRole.data.every((u) => u.roles.includes('clerk'))).toBe(true);
    const byName = await t().call<User[]>('/user/UserList', { name: 'NEWB' }, { token });
    expect(byName.data.map((u) => u.id)).toEqual([added.data.id]);

    const altered = await t().call<User>(
      '/user/alertusr',
      { id: added.data.id, roles: ['manager', 'stock'], shops: [stores[0].id, stores[1].id] },
      { token },
    );
    expect(altered.data).toMatchObject({ roles: ['manager', 'stock'], shops: [stores[0].id, stores[1].id] });

    const dup = await t().call(
      '/user/addusr',
      { username: 'newbie', name: 'x', password: pw, rpassword: pw, roles: ['admin'] },
      { token },
    );
    expect(dup).toMatchObject({ code: 1004, msg: 'Already exists: newbie' });

    const del = await t().call('/user/delusr', { ids: [added.data.id] }, { token });
    expect(del.data).toEqual({ deleted: 1 });
    const gone = await t().call('/user/login', { username: 'newbie', password: clientDigest('new-pass-1') });
    expect(gone.code).toBe(1006);
  });

  it('checks the add form: passwords match, a role, a store for non-admins', async () => {
    const { tokens } = await buildWorld(t().app);
    const token = tokens.admin;
    const base = { username: 'formcheck', name: 'F', password: pw, rpassword: pw, roles: ['clerk'], shops: [] };
    const mismatch = await t().call('/user/addusr', { ...base, rpassword: clientDigest('other') }, { token });
    expect(mismatch.msg).toBe('Confirm password: passwords do not match');
    const noRole = await t().call('/user/addusr', { ...base, roles: [] }, { token });
    expect(noRole.msg).toBe('Role: please select a role');
    const noStore = await t().call('/user/addusr', base, { token });
    expect(noStore.msg).toBe('Stores: please select a store');
    const zh = await t().call('/user/addusr', { ...base, name: ' ' }, { token, lang: 'zh-CN' });
    expect(zh.msg).toBe('名称：不能为空');
  });

  it('lets anyone change their own name and password, which signs out their other sessions', async () => {
    const { tokens, users } = await buildWorld(t().app);
    const other = await login(t().app, users.clerk.username);
    const res = await t().call<User>(
      '/user/alertusr',
      { id: users.clerk.id, name: 'Renamed', password: pw, rpassword: pw },
      { token: tokens.clerk },
    );
    expect(res.code, res.msg).toBe(0);
    expect(res.data.name).toBe('Renamed');
    expect((await t().call('/user/info', {}, { token: tokens.clerk })).code).toBe(0);
    expect((await t().call('/user/info', {}, { token: other })).code).toBe(800);
    expect(await login(t().app, users.clerk.username, 'new-pass-1')).toBeTruthy();
    const old = await t().call('/user/login', { username: users.clerk.username, password: clientDigest(PASSWORD) });
    expect(old.code).toBe(1006);
  });

  it('refuses a non-admin changing others, roles or stores, and an admin dropping their own admin role', async () => {
    const { tokens, users, stores } = await buildWorld(t().app);
    const others = await t().call('/user/alertusr', { id: users.stock.id, name: 'x' }, { token: tokens.clerk });
    expect(others.code).toBe(1003);
    const ownRoles = await t().call(
      '/user/alertusr',
      { id: users.clerk.id, roles: ['admin'] },
      { token: tokens.clerk },
    );
    expect(ownRoles.code).toBe(1003);
    const ownShops = await t().call(
      '/user/alertusr',
      { id: users.clerk.id, shops: [stores[1].id] },
      { token: tokens.clerk },
    );
    expect(ownShops.code).toBe(1003);
    const demote = await t().call('/user/alertusr', { id: users.admin.id, roles: ['clerk'] }, { token: tokens.admin });
    expect(demote.msg).toBe('Role: not allowed on your own account');
    const self = await t().call('/user/delusr', { ids: [users.admin.id] }, { token: tokens.admin });
    expect(self.code).toBe(1001);
    const stock = await t().app.services.db.selectFrom('users').selectAll().where('id', '=', users.stock.id).execute();
    expect(stock[0].name).toBe('Test User');
  });

  it('lets only user.read/user.write roles list, add or delete users', async () => {
    const { tokens, users } = await buildWorld(t().app);
    for (const role of ['editor', 'manager', 'clerk', 'stock'] as const) {
      const token = tokens[role];
      expect((await t().call('/user/UserList', {}, { token })).code).toBe(1003);
      const add = { username: `by${role}`, name: 'x', password: pw, rpassword: pw, roles: ['admin'] };
      expect((await t().call('/user/addusr', add, { token })).code).toBe(1003);
      expect((await t().call('/user/delusr', { ids: [users.stock.id] }, { token })).code).toBe(1003);
    }
    const exists = await t()
      .app.services.db.selectFrom('users')
      .select('id')
      .where('username', 'like', 'by%')
      .execute();
    expect(exists).toEqual([]);
  });

  it("refuses reading, changing or deleting another tenant's users and changes nothing", async () => {
    const a = await buildWorld(t().app);
    const b = await buildWorld(t().app);
    const token = a.tokens.admin;
    const victim = b.users.clerk;
    const before = await t().app.services.db.selectFrom('users').selectAll().where('id', '=', victim.id).execute();

    const list = await t().call<User[]>('/user/UserList', { limit: 2000 }, { token });
    expect(list.data.map((u) => u.id)).not.toContain(victim.id);
    const attempts: [string, object][] = [
      ['/user/alertusr', { id: victim.id, name: 'hijacked' }],
      ['/user/alertusr', { id: victim.id, password: pw, rpassword: pw }],
      ['/user/delusr', { ids: [victim.id] }],
      ['/user/delusr', { ids: [a.users.stock.id, victim.id] }],
      ['/user/alertusr', { id: a.users.stock.id, shops: [b.stores[0].id] }],
      [
        '/user/addusr',
        { username: 'sneaky', name: 'x', password: pw, rpassword: pw, roles: ['clerk'], shops: [b.stores[0].id] },
      ],
    ];
    for (const [path, body] of attempts) {
      const res = await t().call(path, body, { token });
      expect([1002, 1003], `${path} ${JSON.stringify(body)}`).toContain(res.code);
    }
    const after = await t().app.services.db.selectFrom('users').selectAll().where('id', '=', victim.id).execute();
    expect(after).toEqual(before);
    expect((await t().call('/user/info', {}, { token: b.tokens.clerk })).code).toBe(0);
    const stock = await t()
      .app.services.db.selectFrom('user_stores')
      .select('store_id')
      .where('user_id', '=', a.users.stock.id)
      .execute();
    expect(stock.map((s) => s.store_id)).toEqual([a.stores[0].id]);
    const sneaky = await t()
      .app.services.db.selectFrom('users')
      .select('id')
      .where('username', '=', 'sneaky')
      .execute();
    expect(sneaky).toEqual([]);
  });
});
