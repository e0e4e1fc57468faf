import type { Product } from '@esl/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sqliteHandleOf } from '../../../infra/db/database';
import { buildProduct, buildProducts, buildShop, buildTag, multipartFile } from '../../../test/business';
import { sqliteInFile, testDatabases } from '../../../test/databases';
import { type TestApp, useApp } from '../../../test/harness';
import { tagIdsShowingBarcodes } from '../repository';

/*
 * Issue 25 item 5: an import is written in one transaction (docs/BUSINESS.md, "All or nothing")
 * over many event-loop turns; meanwhile the console keeps answering from what is committed, and
 * an import that fails half-way through its writes leaves nothing of itself behind.
 */

const postgres = (await testDatabases()).filter((d) => d.name === 'postgres');

const ROWS = 40_000;
const FIRST = 6_900_000_000_000;

/** A CSV of `rows` products; the first one is barcode `FIRST`, the others new. */
const csvOf = (rows: number, price = '9.90') =>
  ['barcode,name,price', ...Array.from({ length: rows }, (_, i) => `${FIRST + i},Product ${i},${price}`)].join('\n');

function importing(t: () => TestApp, token: string, csv: string) {
  const { payload, headers } = multipartFile('products.csv', Buffer.from(csv));
  return t().app.inject({
    method: 'POST',
    url: '/api/mgr/product/import',
    headers: { ...headers, token, 'accept-language': 'en' },
    payload,
  });
}

describe('a large import on SQLite in a file', () => {
  const t = useApp(sqliteInFile);

  it('leaves the product list answering while its transaction is open, showing none of its rows', {
    timeout: 60_000,
  }, async () => {
    const { app } = t();
    const { tokens } = await buildShop(app);
    const writer = sqliteHandleOf(app.services.db);
    if (!writer) throw new Error('no SQLite writer');
    const answer = importing(t, tokens.stock, csvOf(ROWS));
    // The import's write transaction is the only one open over several turns in this app.
    while (!writer.inTransaction) await new Promise((r) => setImmediate(r));
    const list = await t().call<Product[]>('/mgr/product/list', { page: 1, limit: 20 }, { token: tokens.stock });
    const stillWriting = writer.inTransaction;
    const done = (await answer).json() as { code: number; data: { inserted: number } };
    expect(list.code).toBe(0);
    expect(stillWriting, 'the list answered only after the import committed').toBe(true);
    expect(list.count).toBe(0);
    expect(done).toMatchObject({ code: 0, data: { inserted: ROWS } });
    const after = await t().call<Product[]>('/mgr/product/list', { page: 1, limit: 20 }, { token: tokens.stock });
    expect(after.count).toBe(ROWS);
  });
});

describe.each([sqliteInFile, ...postgres])('a large import on $name', (target) => {
  const t = useApp(target);

  it('writes nothing of an import that fails after most of its rows were written', { timeout: 60_000 }, async () => {
    const { app } = t();
    const { db, dialect } = app.services;
    const { tokens, tenant, store } = await buildShop(app);
    // An existing product on a tag, which the file changes, and a trigger refusing one of the last rows.
    const at = { tenantId: tenant.id, storeId: store.id };
    const product = await buildProduct(app, at, { barcode: String(FIRST), priceCents: 100 });
    await buildTag(app, at, { productId: product.id });
    const refused = String(FIRST + ROWS - 100);
    if (dialect === 'postgres') {
      await sql
        .raw(
          `create function refuse_one() returns trigger language plpgsql as $$ begin
             if new.barcode = '${refused}' then raise exception 'refused'; end if; return new; end $$`,
        )
        .execute(db);
      await sql`create trigger refuse_one before insert on products for each row execute function refuse_one()`.execute(
        db,
      );
    } else {
      await sql
        .raw(
          `create trigger refuse_one before insert on products when new.barcode = '${refused}'
           begin select raise(abort, 'refused'); end`,
        )
        .execute(db);
    }
    try {
      const tasksBefore = await db
        .selectFrom('device_tasks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const res = await importing(t, tokens.stock, csvOf(ROWS, '12.00'));
      expect(res.statusCode).toBe(500);
      const products = await db
        .selectFrom('products')
        .select(['barcode', 'price_cents', 'price_changes'])
        .where('store_id', '=', store.id)
        .execute();
      expect(products).toEqual([{ barcode: String(FIRST), price_cents: 100, price_changes: 0 }]);
      const tasksAfter = await db
        .selectFrom('device_tasks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(tasksAfter.n)).toBe(Number(tasksBefore.n));
    } finally {
      await sql`drop trigger refuse_one${sql.raw(dialect === 'postgres' ? ' on products' : '')}`.execute(db);
    }
  });

  it("finds the tags showing the written barcodes from either side: the barcodes' or the store's tags", async () => {
    const { app } = t();
    const { tenant, store, otherStore } = await buildShop(app);
    const at = { tenantId: tenant.id, storeId: store.id };
    const products = await buildProducts(
      app,
      at,
      ['p1', 'p2', 'p3', 'p4', 'p5'].map((barcode) => ({ barcode })),
    );
    const tagOf = async (i: number) => (await buildTag(app, at, { productId: products[i]?.id })).id;
    const shown = [await tagOf(0), await tagOf(1), await tagOf(1), await tagOf(3), await tagOf(4)];
    await buildTag(app, at, {}); // bound to nothing
    // Another store's product and tag with a written barcode are not this store's.
    const [foreign] = await buildProducts(app, { tenantId: tenant.id, storeId: otherStore.id }, [{ barcode: 'p2' }]);
    await buildTag(app, { tenantId: tenant.id, storeId: otherStore.id }, { productId: foreign?.id });
    const find = (barcodes: string[], page?: number) =>
      tagIdsShowingBarcodes(app.services.db, at, barcodes, undefined, page).then((ids) => ids.sort((a, b) => a - b));
    // Five bound tags: more barcodes than that reads the store's tags (in pages of 2 here), fewer looks them up.
    const many = ['p2', 'p3', 'p5', 'x1', 'x2', 'x3'];
    expect(await find(many, 2)).toEqual([shown[1], shown[2], shown[4]]);
    expect(await find(many)).toEqual([shown[1], shown[2], shown[4]]);
    expect(await find(['p2', 'p5'])).toEqual([shown[1], shown[2], shown[4]]);
    expect(await find([])).toEqual([]);
  });
});
