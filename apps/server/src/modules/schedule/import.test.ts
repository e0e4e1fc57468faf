import {
  ErrorCode,
  fromLocalTime,
  IMPORT_TIME_FIELD,
  type ImportData,
  type ImportError,
  type ImportInspection,
  type ScheduledChange,
} from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { CallContext } from '../../api/context';
import { buildProduct, buildShop } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { largeFileAdded } from './service';

// The import wizard's times (docs/SCHEDULE.md): a "takes effect at" column and one time for the
// whole file turn rows into scheduled changes instead of writing the products now.

type Answer<T = unknown> = { code: number; msg: string; data: T };

function wizardBody(filename: string, text: string, options?: object) {
  const boundary = '----esl-schedule-import';
  const head = options
    ? `--${boundary}\r\nContent-Disposition: form-data; name="options"\r\n\r\n${JSON.stringify(options)}\r\n`
    : '';
  const payload = Buffer.concat([
    Buffer.from(
      `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: text/csv\r\n\r\n',
    ),
    Buffer.from(text),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function setZone(app: FastifyInstance, tenantId: number, storeId: number, timeZone: string) {
  await app.services.db
    .insertInto('store_params')
    .values({ tenant_id: tenantId, store_id: storeId, params: JSON.stringify({ timeZone }), updated_at: 0 })
    .onConflict((oc) => oc.column('store_id').doUpdateSet({ params: JSON.stringify({ timeZone }) }))
    .execute();
}

const changesOf = (app: FastifyInstance, tenantId: number) =>
  app.services.db
    .selectFrom('scheduled_changes as s')
    .innerJoin('products as p', 'p.id', 's.product_id')
    .select(['s.store_id', 'p.barcode', 's.changes', 's.effective_at', 's.status', 's.note'])
    .where('s.tenant_id', '=', tenantId)
    .orderBy('s.store_id')
    .orderBy('p.barcode')
    .execute();

const prices = (app: FastifyInstance, storeId: number) =>
  app.services.db
    .selectFrom('products')
    .select(['barcode', 'name', 'price_cents', 'custom'])
    .where('store_id', '=', storeId)
    .orderBy('barcode')
    .execute();

describe.each(await testDatabases())('scheduled rows of the import wizard on $name', (db) => {
  const t = useApp(db);

  async function post<T>(path: string, token: string, name: string, text: string, options?: object, lang = 'en') {
    const { payload, headers } = wizardBody(name, text, options);
    const res = await t().app.inject({
      method: 'POST',
      url: `/api/mgr/product/${path}`,
      headers: { ...headers, token, 'accept-language': lang },
      payload,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as Answer<T>;
  }

  async function shop() {
    const app = t().app;
    const s = await buildShop(app);
    const a = { tenantId: s.tenant.id, storeId: s.store.id };
    const b = { tenantId: s.tenant.id, storeId: s.otherStore.id };
    await setZone(app, s.tenant.id, s.otherStore.id, 'Europe/London');
    await buildProduct(app, a, {
      barcode: '6901001',
      name: '苹果',
      priceCents: 1000,
      custom: { brand: 'X', tag: 'old' },
    });
    await buildProduct(app, a, { barcode: '6901002', name: '香蕉', priceCents: 500 });
    await buildProduct(app, b, { barcode: '6901001', name: '苹果', priceCents: 900, custom: { brand: 'Y' } });
    return { ...s, a, b };
  }

  it('finds the time column, schedules its rows chain-wide on each store clock and imports the others now', async () => {
    const { app } = t();
    const s = await shop();
    const csv = [
      '条码,名称,价格,生效时间,tag',
      '6901001,苹果,12.50,2030-01-06 00:00,',
      '6901002,香蕉,5.50,,',
      '6901003,梨,3.20,,',
    ].join('\n');
    const seen = await post<ImportInspection>('importcheck', s.tokens.admin, 'week2.csv', csv);
    expect(seen.code, seen.msg).toBe(0);
    expect(seen.data.columns.map((c) => c.field)).toEqual(['barcode', 'name', 'price', IMPORT_TIME_FIELD, null]);
    expect(seen.data.preview.every((r) => r.problems.length === 0)).toBe(true);

    const columns = ['barcode', 'name', 'price', IMPORT_TIME_FIELD, 'tag'];
    const done = await post<ImportData>('importmapped', s.tokens.admin, 'week2.csv', csv, {
      columns,
      scope: 'chain',
      save: true,
    });
    expect(done.code, done.msg).toBe(0);
    expect(done.data).toEqual({
      total: 3,
      inserted: 1,
      updated: 1,
      unchanged: 0,
      scheduled: 1,
      scheduledChanges: 2,
    });
    // The timed row wrote nothing now; the others did.
    expect((await prices(app, s.store.id)).map((p) => [p.barcode, p.price_cents])).toEqual([
      ['6901001', 1000],
      ['6901002', 550],
      ['6901003', 320],
    ]);
    expect((await prices(app, s.otherStore.id)).map((p) => p.price_cents)).toEqual([900]);
    // One change per store, at midnight of each store's own clock; the custom cell (empty: the
    // key is removed) merged into each product's own custom fields.
    const rows = await changesOf(app, s.tenant.id);
    expect(rows.map((r) => [r.store_id, r.barcode, Number(r.effective_at), r.status, r.note])).toEqual([
      [s.store.id, '6901001', Date.UTC(2030, 0, 5, 16, 0), 'pending', 'week2.csv'],
      [s.otherStore.id, '6901001', Date.UTC(2030, 0, 6, 0, 0), 'pending', 'week2.csv'],
    ]);
    expect(rows.map((r) => JSON.parse(r.changes))).toEqual([
      { name: '苹果', price: '12.50', custom: { brand: 'X' } },
      { name: '苹果', price: '12.50', custom: { brand: 'Y' } },
    ]);
    // The pending list shows it on the store's clock; the time column is not saved in the mapping.
    const list = await t().call<ScheduledChange[]>(
      '/mgr/schedule/list',
      { status: 'pending', page: 1, limit: 20 },
      { token: s.tokens.admin },
    );
    expect(list.data.map((c) => [c.barcode, c.localAt, c.timeZone])).toEqual([
      ['6901001', '2030-01-06T00:00', 'Asia/Shanghai'],
    ]);
    const map = await t().call<{ fields: { name: string }[] }>('/mgr/product/mapfield', {}, { token: s.tokens.admin });
    expect(map.code).toBe(0);
    expect(map.data.fields.map((f) => f.name)).not.toContain(IMPORT_TIME_FIELD);
    expect(map.data.fields.map((f) => f.name)).toContain('tag');
  });

  it('gives the whole file one time, a row’s own time first; chain-wide reaches only the stores the user sees', async () => {
    const { app } = t();
    const s = await shop();
    const csv = ['条码,名称,价格,生效时间', '6901001,苹果,11.00,2030/3/1 9:30', '6901002,香蕉,6.00,'].join('\n');
    // The stock clerk works in the first store only: `chain` reaches no other store.
    const done = await post<ImportData>('importmapped', s.tokens.stock, 'file.csv', csv, {
      at: '2030-02-01T08:00',
      scope: 'chain',
    });
    expect(done.code, done.msg).toBe(0);
    expect(done.data).toMatchObject({ total: 2, inserted: 0, updated: 0, scheduled: 2, scheduledChanges: 2 });
    expect((await prices(app, s.store.id)).map((p) => p.price_cents)).toEqual([1000, 500]);
    const rows = await changesOf(app, s.tenant.id);
    expect(rows.map((r) => [r.store_id, r.barcode, Number(r.effective_at)])).toEqual([
      [s.store.id, '6901001', fromLocalTime('2030-03-01T09:30', 'Asia/Shanghai')],
      [s.store.id, '6901002', fromLocalTime('2030-02-01T08:00', 'Asia/Shanghai')],
    ]);
  });

  it('refuses a bad time and a product the store lacks, in the caller’s language, writing nothing', async () => {
    const { app } = t();
    const s = await shop();
    const bad = ['条码,名称,价格,生效时间', '6901001,苹果,11.00,明天', '6901002,香蕉,6.00,2030-02-30 08:00'].join('\n');
    const refused = await post<ImportError[]>('importmapped', s.tokens.stock, 'bad.csv', bad, {}, 'zh-CN');
    expect(refused.code).toBe(ErrorCode.IMPORT_FAILED);
    expect(refused.data.map((e) => e.line)).toEqual([2, 3]);
    expect(refused.data[0]?.field).toBe(IMPORT_TIME_FIELD);
    expect(refused.data[0]?.reason).toContain('生效时间格式不正确');

    // A timed row for a barcode this store lacks (the other store has it): refused, and the new
    // product of the untimed row is not written either.
    await buildProduct(app, s.b, { barcode: '6909999', name: 'only there' });
    const missing = ['条码,名称,价格,生效时间', '6909999,梨,3.00,2030-02-01 08:00', '6901005,新品,6.00,'].join('\n');
    const none = await post<ImportError[]>('importmapped', s.tokens.admin, 'missing.csv', missing, { scope: 'chain' });
    expect(none.code).toBe(ErrorCode.IMPORT_FAILED);
    expect(none.data).toEqual([
      {
        line: 2,
        field: 'barcode',
        reason:
          'this store has no product with barcode 6909999 yet: a scheduled change only changes an existing product, import it without a time first',
      },
    ]);
    expect((await prices(app, s.store.id)).map((p) => p.barcode)).toEqual(['6901001', '6901002']);
    expect(await changesOf(app, s.tenant.id)).toEqual([]);

    // A whole-file time that is not a time is refused as an option.
    const opt = await post('importmapped', s.tokens.stock, 'ok.csv', '条码,名称,价格\n6901001,苹果,1', {
      at: '2030-02-01 08:00',
    });
    expect(opt.code).not.toBe(0);
    expect(await changesOf(app, s.tenant.id)).toEqual([]);
  });
});

describe.each((await testDatabases()).filter((d) => d.name === 'postgres'))('a large file on $name', (target) => {
  const t = useApp(target);

  it('refreshes the statistics the scheduler plans its reads on, once the file is in', async () => {
    const db = t().app.services.db;
    const analyzed = async () => {
      const r = await sql<{ n: string }>`select coalesce(analyze_count, 0) as n from pg_stat_user_tables
        where relname = 'scheduled_changes' and schemaname = current_schema()`.execute(db);
      return Number(r.rows[0]?.n ?? 0);
    };
    const before = await analyzed();
    const ctx = { services: t().app.services } as unknown as CallContext;
    await largeFileAdded(ctx, 4999);
    expect(await analyzed()).toBe(before);
    await largeFileAdded(ctx, 5000);
    expect(await analyzed()).toBe(before + 1);
  });
});
