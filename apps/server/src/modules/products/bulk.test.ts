import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildProduct } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { buildStore, buildTenant } from '../../test/factories';
import { useApp } from '../../test/harness';
import { byBarcodes, productsByBarcodes } from './repository';

// The bulk upsert's read of the products it names (issue 15: 100,000 products in 100 calls).

describe.each(await testDatabases())('products by barcode on $name', (db) => {
  const t = useApp(db);

  it('finds the store’s products with the barcodes given, not another store’s or tenant’s', async () => {
    const { app } = t();
    const tenant = await buildTenant(app);
    const store = await buildStore(app, tenant.id);
    const second = await buildStore(app, tenant.id);
    const other = await buildTenant(app);
    const otherStore = await buildStore(app, other.id);
    const at = { tenantId: tenant.id, storeId: store.id };
    await buildProduct(app, at, { barcode: '6901' });
    await buildProduct(app, at, { barcode: '6902' });
    await buildProduct(app, { tenantId: tenant.id, storeId: second.id }, { barcode: '6903' });
    await buildProduct(app, { tenantId: other.id, storeId: otherStore.id }, { barcode: '6901' });
    const rows = await productsByBarcodes(app.services.db, at as never, ['6901', '6903', '6999'], app.services.dialect);
    expect(rows.map((r) => [r.barcode, r.store_id, r.tenant_id])).toEqual([['6901', store.id, tenant.id]]);
    // The tenant is checked too, not only the store.
    const wrongTenant = await productsByBarcodes(
      app.services.db,
      { tenantId: other.id, storeId: store.id } as never,
      ['6901'],
      app.services.dialect,
    );
    expect(wrongTenant).toEqual([]);
    expect(await productsByBarcodes(app.services.db, at as never, [], app.services.dialect)).toEqual([]);
  });
});

const [sqlite] = await testDatabases();

describe('products by barcode on SQLite', () => {
  const t = useApp(sqlite);

  it('seeks each barcode in the (store, barcode) index instead of reading the store', async () => {
    const { app } = t();
    const q = byBarcodes(
      app.services.db,
      { tenantId: 1, storeId: 1 } as never,
      ['6901', '6902', '6903'],
      'sqlite',
    ).compile();
    const plan = await app.services.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]),
    );
    const detail = plan.rows.map((r) => r.detail).join(' | ');
    expect(detail).toMatch(/USING INDEX sqlite_autoindex_products_\d+ \(store_id=\? AND barcode=\?\)/);
  });
});
