import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../database';

type Col = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/** Base stations, tags, products, the import field mapping and recorded device requests (issue 4). */
export function business(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const idType = pg ? 'serial' : 'integer';
  const id: Col = (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  // Times in ms and prices in cents can pass 2^31.
  const big = pg ? 'bigint' : 'integer';
  const real = pg ? 'double precision' : 'real';
  const text: Col = (c) => c.notNull().defaultTo('');
  const tenant: Col = (c) => c.notNull().references('tenants.id').onDelete('cascade');
  const store: Col = (c) => c.notNull().references('stores.id').onDelete('cascade');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('stations')
        .addColumn('id', idType, id)
        .addColumn('tenant_id', 'integer', tenant)
        .addColumn('store_id', 'integer', store)
        .addColumn('sn', 'text', (c) => c.notNull())
        .addColumn('name', 'text', text)
        .addColumn('module', 'text', text)
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('cpu', real)
        .addColumn('memory', real)
        .addColumn('disk', real)
        .addColumn('ip', 'text', text)
        .addColumn('mac', 'text', text)
        .addColumn('wifi_password', 'text', text)
        .addColumn('ntp_server', 'text', text)
        .addColumn('gateway', 'text', text)
        .addColumn('mask', 'text', text)
        .addColumn('server_address', 'text', text)
        .addColumn('server_port', 'integer')
        .addColumn('upgrade_url', 'text', text)
        .addColumn('firmware', 'text', text)
        .addColumn('last_heartbeat', big)
        .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', big, (c) => c.notNull())
        .addUniqueConstraint('stations_tenant_sn', ['tenant_id', 'sn'])
        .execute();
      await db.schema.createIndex('stations_store').on('stations').columns(['tenant_id', 'store_id', 'id']).execute();

      await db.schema
        .createTable('products')
        .addColumn('id', idType, id)
        .addColumn('tenant_id', 'integer', tenant)
        .addColumn('store_id', 'integer', store)
        .addColumn('barcode', 'text', (c) => c.notNull())
        .addColumn('qrcode', 'text', text)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('price_cents', big, (c) => c.notNull())
        .addColumn('original_price_cents', big)
        .addColumn('unit', 'text', text)
        .addColumn('spec', 'text', text)
        .addColumn('origin', 'text', text)
        .addColumn('grade', 'text', text)
        .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('price_changes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addUniqueConstraint('products_store_barcode', ['store_id', 'barcode'])
        .execute();
      await db.schema.createIndex('products_store').on('products').columns(['tenant_id', 'store_id', 'id']).execute();

      await db.schema
        .createTable('tags')
        .addColumn('id', idType, id)
        .addColumn('tenant_id', 'integer', tenant)
        .addColumn('store_id', 'integer', store)
        .addColumn('hardware_id', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('colour', 'text', (c) => c.notNull())
        .addColumn('product_id', 'integer', (c) => c.references('products.id').onDelete('set null'))
        .addColumn('station_id', 'integer', (c) => c.references('stations.id').onDelete('set null'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('unknown'))
        .addColumn('signal', 'integer')
        .addColumn('battery', 'integer')
        .addColumn('temperature', 'integer')
        .addColumn('hardware_model', 'text', text)
        .addColumn('last_seen', big)
        .addColumn('created_at', big, (c) => c.notNull())
        .addUniqueConstraint('tags_tenant_hardware', ['tenant_id', 'hardware_id'])
        .execute();
      // The list pages newest first within a store, optionally by status or model. The tenant
      // leads every index, so the list's counts (tenant + store + filter) read the index alone.
      await db.schema.createIndex('tags_store').on('tags').columns(['tenant_id', 'store_id', 'id']).execute();
      await db.schema
        .createIndex('tags_store_status')
        .on('tags')
        .columns(['tenant_id', 'store_id', 'status', 'id'])
        .execute();
      await db.schema
        .createIndex('tags_store_model')
        .on('tags')
        .columns(['tenant_id', 'store_id', 'model', 'id'])
        .execute();
      await db.schema
        .createIndex('tags_store_hardware')
        .on('tags')
        .columns(['tenant_id', 'store_id', 'hardware_id'])
        .execute();
      await db.schema.createIndex('tags_product').on('tags').column('product_id').execute();
      await db.schema.createIndex('tags_station').on('tags').column('station_id').execute();

      await db.schema
        .createTable('field_maps')
        .addColumn('tenant_id', 'integer', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('device_requests')
        .addColumn('id', idType, id)
        .addColumn('tenant_id', 'integer', tenant)
        .addColumn('store_id', 'integer', store)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('tag_id', 'integer')
        .addColumn('station_id', 'integer')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer')
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('device_requests_store').on('device_requests').columns(['store_id', 'id']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ['device_requests', 'field_maps', 'tags', 'products', 'stations']) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
