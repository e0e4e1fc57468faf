import { type Store, StoreParams } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { buildStore, buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';

describe.each(await testDatabases())('stores on $name', (db) => {
  const t = useApp(db);

  it('adds, lists with paging and filters, alters and deletes', async () => {
    const { tokens, stores } = await buildWorld(t().app);
    const token = tokens.admin;
    const added = await t().call<Store>(
      '/mgr/station/add',
      { name: ' Flagship ', code: 'FLAG-1', address: 'Main St 1' },
      { token },
    );
    expect(added.code).toBe(0);
    expect(added.data).toMatchObject({
      name: 'Flagship',
      code: 'FLAG-1',
      address: 'Main St 1',
      key: String(added.data.id),
    });

    const page = await t().call<Store[]>('/mgr/station/list', { page: 1, limit: 2 }, { token });
    expect(page.count).toBe(3);
    expect(page.data.map((s) => s.id)).toEqual([stores[0].id, stores[1].id]);
    const second = await t().call<Store[]>('/mgr/station/list', { page: 2, limit: 2 }, { token });
    expect(second.data.map((s) => s.id)).toEqual([added.data.id]);
    const byName = await t().call<Store[]>('/mgr/station/list', { name: 'flag' }, { token });
    expect(byName.data.map((s) => s.id)).toEqual([added.data.id]);

    const dup = await t().call('/mgr/station/add', { name: 'Other', code: 'FLAG-1' }, { token });
    expect(dup).toMatchObject({ code: 1004, msg: 'Already exists: FLAG-1' });

    const altered = await t().call<Store>('/mgr/station/alert', { id: added.data.id, phone: '555' }, { token });
    expect(altered.data).toMatchObject({ id: added.data.id, name: 'Flagship', phone: '555' });

    const del = await t().call('/mgr/station/delete', { ids: [added.data.id] }, { token });
    expect(del.data).toEqual({ deleted: 1 });
    expect((await t().call('/mgr/station/list', {}, { token })).count).toBe(2);
  });

  it('shows non-admins only their assigned stores', async () => {
    const { tokens, stores } = await buildWorld(t().app);
    const list = await t().call<Store[]>('/mgr/station/list', {}, { token: tokens.clerk });
    expect(list.data.map((s) => s.id)).toEqual([stores[0].id]);
    expect(list.count).toBe(1);
    const params = await t().call('/mgr/station/getparame', { id: stores[1].id }, { token: tokens.manager });
    expect(params.code).toBe(1002);
  });

  it('keeps parameters per store with defaults', async () => {
    const { tokens, stores } = await buildWorld(t().app);
    const token = tokens.admin;
    const initial = await t().call<{ id: number; params: StoreParams }>(
      '/mgr/station/getparame',
      { id: stores[0].id },
      { token },
    );
    expect(initial.data.params).toEqual(StoreParams.parse({}));
    const params = { ...StoreParams.parse({}), ledColour: 'red', quietStart: '22:00', quietEnd: '06:00' };
    const set = await t().call('/mgr/station/setparame', { id: stores[0].id, params }, { token });
    expect(set.code).toBe(0);
    const read = await t().call<{ params: StoreParams }>('/mgr/station/getparame', { id: stores[0].id }, { token });
    expect(read.data.params).toEqual(params);
    const other = await t().call<{ params: StoreParams }>('/mgr/station/getparame', { id: stores[1].id }, { token });
    expect(other.data.params.ledColour).toBe('green');
    const bad = await t().call(
      '/mgr/station/setparame',
      { id: stores[0].id, params: { quietStart: '25:00' } },
      { token },
    );
    expect(bad).toMatchObject({ code: 1001, msg: 'Quiet hours start: has the wrong format' });
  });

  it("refuses every call on another tenant's store and changes nothing", async () => {
    const a = await buildWorld(t().app);
    const b = await buildWorld(t().app);
    const theirs = b.stores[0];
    const token = a.tokens.admin;
    const attempts: [string, object][] = [
      ['/mgr/station/alert', { id: theirs.id, name: 'hijacked' }],
      ['/mgr/station/delete', { ids: [theirs.id] }],
      ['/mgr/station/delete', { ids: [a.stores[1].id, theirs.id] }],
      ['/mgr/station/getparame', { id: theirs.id }],
      ['/mgr/station/setparame', { id: theirs.id, params: { ledColour: 'red' } }],
      ['/user/setcurrshop', { curshop: theirs.id }],
    ];
    for (const [path, body] of attempts) {
      const res = await t().call(path, body, { token });
      expect([1002, 1003], `${path} ${JSON.stringify(body)}`).toContain(res.code);
    }
    const list = await t().call<Store[]>('/mgr/station/list', { limit: 2000 }, { token });
    expect(list.data.map((s) => s.id)).not.toContain(theirs.id);

    const still = await t()
      .app.services.db.selectFrom('stores')
      .selectAll()
      .where('id', '=', theirs.id)
      .executeTakeFirst();
    expect(still).toEqual(theirs);
    const params = t().app.services.db.selectFrom('store_params').selectAll().where('store_id', '=', theirs.id);
    expect(await params.execute()).toEqual([]);
    const mine = await t().app.services.db.selectFrom('stores').select('id').where('id', '=', a.stores[1].id).execute();
    expect(mine.length).toBe(1);
  });

  it('only lets store.write roles add, alter or delete', async () => {
    const { tokens, stores } = await buildWorld(t().app);
    for (const role of ['editor', 'manager', 'clerk', 'stock'] as const) {
      const token = tokens[role];
      expect((await t().call('/mgr/station/add', { name: 'x', code: `X${role}` }, { token })).code).toBe(1003);
      expect((await t().call('/mgr/station/alert', { id: stores[0].id, name: 'x' }, { token })).code).toBe(1003);
      expect((await t().call('/mgr/station/delete', { ids: [stores[0].id] }, { token })).code).toBe(1003);
    }
    const extra = await buildStore(t().app, stores[0].tenant_id);
    expect(extra.tenant_id).toBe(stores[0].tenant_id);
  });
});
