import type { Template, Tenant, TenantBaseInfo } from '@esl/contract';
import { createCanvas } from '@napi-rs/canvas';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, seedDemo } from '../../demo/seed';
import { writeSysLog } from '../../infra/audit/syslog';
import { clientDigest } from '../../infra/lib/passwords';
import { storeImages } from '../../infra/render/repository';
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
    // sk is masked once it was shown: only its last four characters.
    expect(base.data.sk).toMatch(/^•{8}[0-9a-f]{4}$/);

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

  it('deletes a tenant with every row of every table holding tenant_id, and refuses a list with an unknown id', async () => {
    const { db: kdb, config } = t().app.services;
    const op = await buildOperator(t().app);
    const other = await buildWorld(t().app);
    // The demo tenant has rows in most tables; the calls below add the rest.
    const { tenantId } = await seedDemo(kdb, t().clock.time, undefined, config.passwordCost);
    const admin = await login(t().app, 'admin', DEMO_PASSWORD);
    const [store] = (await t().call<{ id: number }[]>('/mgr/station/list', {}, { token: admin })).data;
    expect((await t().call('/mgr/station/setparame', { id: store.id, params: {} }, { token: admin })).code).toBe(0);
    const boundary = 'esl-tenant-delete';
    const png = createCanvas(8, 8).toBuffer('image/png');
    const avatar = await t().app.inject({
      method: 'POST',
      url: '/api/user/avatar',
      headers: { token: admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(avatar.json().code).toBe(0);
    expect((await t().call('/user/setcurrshop', { curshop: store.id }, { token: admin })).code).toBe(0);
    const templates = await t().call<Template[]>('/mgr/templ/list', {}, { token: admin });
    const demoTemplate = templates.data.find((x) => x.model !== null);
    expect(demoTemplate).toBeDefined();
    const rule = await t().call(
      '/mgr/templ/setrule',
      { kind: 'default', model: demoTemplate?.model, colour: demoTemplate?.colourType, templateId: demoTemplate?.id },
      { token: admin },
    );
    expect(rule.code, rule.msg).toBe(0);
    const [station] = (await t().call<{ id: number }[]>('/mgr/ap/runtimelist', {}, { token: admin })).data;
    // A recorded device request of the station (the command window no longer records one).
    await t()
      .app.services.db.insertInto('device_requests')
      .values({
        tenant_id: tenantId,
        store_id: store.id,
        kind: 'station.cmdwindow',
        tag_id: null,
        station_id: station.id,
        status: 'recorded',
        user_id: null,
        created_at: t().clock.now(),
      })
      .execute();
    // The delivery logs (migration 011): a tag-log row and a data push, written directly.
    await t()
      .app.services.db.insertInto('tag_log')
      .values({
        tenant_id: tenantId,
        store_id: store.id,
        tag_id: 1,
        hardware_id: 'AA000001',
        request_id: null,
        kind: 'refresh',
        rev: 1,
        result: 'ok',
        hash: null,
        queued_at: null,
        sent_at: null,
        finished_at: t().clock.now(),
        air_ms: null,
        rssi: null,
      })
      .execute();
    await t()
      .app.services.db.insertInto('push_log')
      .values({
        tenant_id: tenantId,
        store_id: store.id,
        source: 'console',
        user_id: null,
        started_at: t().clock.now(),
        finished_at: null,
      })
      .execute();
    // A rendered label (migration 012), as the render stage stores one.
    await t()
      .app.services.db.insertInto('tag_images')
      .values({
        tenant_id: tenantId,
        hash: 'ab'.repeat(32),
        bytes: new Uint8Array([1, 2, 3]),
        size: 3,
        width: 1,
        height: 1,
        colour: 'bw',
        created_at: t().clock.now(),
        last_used_at: t().clock.now(),
      })
      .onConflict((oc) => oc.doNothing());
    // A nonce of a signed integration call (open/), kept for its window.
    await t()
      .app.services.db.insertInto('open_nonces')
      .values({ tenant_id: tenantId, nonce: 'n-0123456789abcdef', time: t().clock.now() })
      .execute();
    // A callback URL and an event waiting in the outbox (callbacks/, migration 019).
    await t()
      .app.services.db.insertInto('callback_settings')
      .values({ tenant_id: tenantId, url: 'https://erp.example.com/cb', updated_at: t().clock.now() })
      .execute();
    await t()
      .app.services.db.insertInto('callback_outbox')
      .values({
        tenant_id: tenantId,
        store_id: store.id,
        event_id: `e-${tenantId}`,
        type: 'test',
        order_key: 'test',
        payload: '{}',
        next_at: t().clock.now(),
        lease_owner: null,
        lease_until: null,
        created_at: t().clock.now(),
        finished_at: null,
        last_status: null,
      })
      .execute();
    // A firmware upgrade slot (firmware/, migration 014).
    await t()
      .app.services.db.insertInto('firmware_tasks')
      .values({
        tenant_id: tenantId,
        store_id: store.id,
        target_key: 's:1',
        kind: 'apfw',
        station_id: null,
        tag_id: null,
        firmware_id: 1,
        version: '2.0.0',
        hash: 'a'.repeat(64),
        size: 1,
        state: 'queued',
        deadline: null,
        created_by: null,
        created_at: t().clock.now(),
        sent_at: null,
        accepted_at: null,
        installing_at: null,
        finished_at: null,
      })
      .execute();
    // A model a station taught (migration 023), a scheduled change and a tag's timed label (025).
    const db = t().app.services.db;
    await db
      .insertInto('learned_models')
      .values({
        tenant_id: tenantId,
        key: 'oepl-35',
        name: 'learned',
        w: 8,
        h: 8,
        colours: '["white","black"]',
        colour_type: 'bw',
        rotate: 0,
        led: 0,
        button: 0,
        nfc: 0,
        source: 'test',
        station_id: null,
        created_at: t().clock.now(),
        updated_at: t().clock.now(),
      })
      .execute();
    const product = await db
      .selectFrom('products')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow();
    const tag = await db.selectFrom('tags').select('id').where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    await db
      .insertInto('scheduled_changes')
      .values({
        tenant_id: tenantId,
        store_id: store.id,
        product_id: product.id,
        changes: '{"price":1}',
        effective_at: t().clock.now() + 60_000,
        status: 'pending',
        note: '',
        batch: 'b',
        created_by: null,
        created_at: t().clock.now(),
        updated_at: t().clock.now(),
        applied_at: null,
      })
      .execute();
    await db
      .insertInto('timed_labels')
      .values({
        tenant_id: tenantId,
        store_id: store.id,
        tag_id: tag.id,
        rev: 1,
        state: 'idle',
        plan_key: '',
        show_at: null,
        hash: null,
        size: null,
        station_id: null,
        sent_rev: null,
        attempt: 0,
        due_at: t().clock.now(),
        updated_at: t().clock.now(),
      })
      .execute();
    // A problem the sweep found (migration 030) and a brand font (migration 029), written directly.
    await db
      .insertInto('problems')
      .values({
        tenant_id: tenantId,
        store_id: store.id,
        kind: 'offline',
        subject: `station:${station.id}`,
        started_at: t().clock.now(),
      })
      .execute();
    // A promotion (migration 031).
    await db
      .insertInto('promotions')
      .values({
        tenant_id: tenantId,
        store_id: store.id,
        name: 'Offer',
        text: '',
        price_cents: 99,
        barcodes: '[]',
        match_key: 'grade',
        match_value: 'A',
        state: 'pending',
        batch: '',
        created_by: null,
        start_at: t().clock.now(),
        end_at: t().clock.now() + 60_000,
        created_at: t().clock.now(),
        updated_at: t().clock.now(),
      })
      .execute();
    // A page schedule (migration 034), with the switch of one tag for its window.
    const schedule = await db
      .insertInto('page_schedules')
      .values({
        tenant_id: tenantId,
        store_id: store.id,
        template_id: demoTemplate?.id ?? 0,
        name: 'Lunch',
        page: 2,
        weekdays: '1,2,3,4,5',
        from_time: '11:00',
        to_time: '14:00',
        enabled: 1,
        armed_start: t().clock.now(),
        armed_end: t().clock.now() + 60_000,
        ended_start: null,
        created_by: null,
        created_at: t().clock.now(),
        updated_at: t().clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('page_schedule_tags')
      .values({ schedule_id: schedule.id, tag_id: tag.id, start_at: t().clock.now(), hash: '' })
      .execute();
    await db
      .insertInto('tenant_fonts')
      .values({
        tenant_id: tenantId,
        family: 'Brand',
        family_key: 'brand',
        weight: 400,
        format: 'ttf',
        name: 'brand.ttf',
        size: 3,
        hash: 'c'.repeat(64),
        bytes: new Uint8Array([1, 2, 3]),
        created_at: t().clock.now(),
      })
      .execute();
    // A tenant's system-log rows come from events such as a throttled sign-in; write one directly.
    await writeSysLog(t().app.services, {
      tenantId,
      level: 'info',
      event: 'test',
      message: 'test',
      time: t().clock.time,
    });
    // A rendered label image (delivery/render); the delivery tasks store them.
    await storeImages(
      kdb,
      tenantId,
      [{ hash: 'ab'.repeat(32), bytes: new Uint8Array([1, 2, 3]), size: 3, width: 1, height: 1, colour: 'bw' }],
      t().clock.now(),
    );

    // Read from the database, not from schema.ts: a table added by a migration is checked too.
    const tables = (await kdb.introspection.getTables())
      .filter((table) => table.columns.some((c) => c.name === 'tenant_id'))
      .map((table) => table.name)
      .sort();
    expect(tables).toEqual(expect.arrayContaining(['stores', 'users', 'tags', 'products', 'templates']));
    const count = async (table: string, tenant: number) => {
      const { rows } = await sql<{ n: number | string }>`
        select count(*) as n from ${sql.table(table)} where tenant_id = ${tenant}`.execute(kdb);
      return Number(rows[0].n);
    };
    const kept: Record<string, number> = {};
    for (const table of tables) {
      expect(await count(table, tenantId), `no row of ${table} to delete: make one above`).toBeGreaterThan(0);
      kept[table] = await count(table, other.tenant.id);
    }

    const refused = await t().call('/saas/sa/sadeltenant', { ids: [tenantId, 999_999] }, { token: op.token });
    expect(refused.code).toBe(1002);
    expect((await t().call('/user/info', {}, { token: admin })).code).toBe(0);
    const del = await t().call('/saas/sa/sadeltenant', { ids: [tenantId] }, { token: op.token });
    expect(del).toMatchObject({ code: 0, data: { deleted: 1 } });
    for (const table of tables) {
      expect(await count(table, tenantId), table).toBe(0);
      expect(await count(table, other.tenant.id), `${table} of another tenant`).toBe(kept[table]);
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
    for (const path of ['/mgr/station/list', '/user/UserList', '/user/getbaseinfo', '/mgr/tag/list']) {
      expect((await t().call(path, {}, { token: op.token })).code, path).toBe(1003);
    }
    // The log calls answer the operator the platform's rows, never a tenant's (logs.test.ts).
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
    const appid = await t().call<TenantBaseInfo>('/user/alertappid', { appid: ' WX0123456789ABCDEF ' }, { token });
    expect(appid.data).toMatchObject({ id: a.tenant.id, appid: 'wx0123456789abcdef' });
    for (const bad of ['wx123', 'wx0123456789abcdeg', '0123456789abcdef01', 'wx0123456789abcdef0']) {
      const refused = await t().call('/user/alertappid', { appid: bad }, { token });
      expect(refused).toMatchObject({
        code: 1001,
        msg: 'App ID: must be wx followed by 16 hexadecimal characters',
      });
    }
    const cleared = await t().call<TenantBaseInfo>('/user/alertappid', { appid: '' }, { token });
    expect(cleared.data.appid).toBe('');
    await t().call('/user/alertappid', { appid: 'wx0123456789abcdef' }, { token });
    const info = await t().call<TenantBaseInfo>(
      '/user/alerttenantinfo',
      { id: b.tenant.id, name: 'Renamed' },
      { token },
    );
    expect(info.data).toMatchObject({ id: a.tenant.id, name: 'Renamed' });
    const keys = await t().call<{ ck: string; sk: string }>('/user/recreatecksk', {}, { token });
    expect(keys.data.ck).not.toBe(a.tenant.ck);
    // The renewal answers sk whole, once; the settings read it masked from then on.
    expect(keys.data.sk).toMatch(/^[0-9a-f]{64}$/);
    const masked = await t().call<{ ck: string; sk: string }>('/user/getbaseinfo', {}, { token });
    expect(masked.data).toMatchObject({ ck: keys.data.ck, sk: `${'•'.repeat(8)}${keys.data.sk.slice(-4)}` });
    const other = await t().app.services.db.selectFrom('tenants').selectAll().where('id', '=', b.tenant.id).execute();
    expect(other[0]).toEqual(b.tenant);
    for (const role of ['editor', 'manager', 'clerk', 'stock'] as const) {
      expect((await t().call('/user/getbaseinfo', {}, { token: a.tokens[role] })).code).toBe(1003);
    }
  });
});
