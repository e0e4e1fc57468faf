import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../database';

type Col = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/** The foundation tables: tenants, users, stores, sessions, logs, avatars, firmware. */
export function initial(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const idType = pg ? 'serial' : 'integer';
  const id: Col = (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  const time = pg ? 'bigint' : 'integer';
  const bytes = pg ? 'bytea' : 'blob';
  const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('tenants')
        .addColumn('id', idType, id)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('company', 'text', text)
        .addColumn('description', 'text', text)
        .addColumn('account', 'text', text)
        .addColumn('appid', 'text', text)
        .addColumn('ck', 'text', (c) => c.notNull())
        .addColumn('sk', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', idType, id)
        .addColumn('tenant_id', 'integer', (c) => c.references('tenants.id').onDelete('cascade'))
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('roles', 'text', (c) => c.notNull())
        .addColumn('introduction', 'text', text)
        .addColumn('avatar_key', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_login_at', time)
        .execute();
      await db.schema.createIndex('users_tenant').on('users').column('tenant_id').execute();

      await db.schema
        .createTable('stores')
        .addColumn('id', idType, id)
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('address', 'text', text)
        .addColumn('contact', 'text', text)
        .addColumn('phone', 'text', text)
        .addColumn('remark', 'text', text)
        .addColumn('created_at', time, (c) => c.notNull())
        .addUniqueConstraint('stores_tenant_code', ['tenant_id', 'code'])
        .execute();
      // A tenant's stores in id order without a sort (store lists, the store picker).
      await db.schema.createIndex('stores_tenant_id').on('stores').columns(['tenant_id', 'id']).execute();

      await db.schema
        .createTable('user_stores')
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('user_stores_pk', ['user_id', 'store_id'])
        .execute();
      await db.schema.createIndex('user_stores_store').on('user_stores').column('store_id').execute();

      await db.schema
        .createTable('store_params')
        .addColumn('store_id', 'integer', (c) => c.primaryKey().references('stores.id').onDelete('cascade'))
        .addColumn('tenant_id', 'integer', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('tenant_id', 'integer', (c) => c.references('tenants.id').onDelete('cascade'))
        .addColumn('store_id', 'integer', (c) => c.references('stores.id').onDelete('set null'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('ip', 'text', text)
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('login_attempts')
        .addColumn('id', idType, id)
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', text)
        .addColumn('time', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_attempts_user').on('login_attempts').columns(['username', 'time']).execute();

      await db.schema
        .createTable('op_logs')
        .addColumn('id', idType, id)
        .addColumn('tenant_id', 'integer', (c) => c.references('tenants.id').onDelete('cascade'))
        .addColumn('store_id', 'integer')
        .addColumn('user_id', 'integer')
        .addColumn('username', 'text', text)
        .addColumn('call', 'text', (c) => c.notNull())
        .addColumn('target', 'text', text)
        .addColumn('code', 'integer', (c) => c.notNull())
        .addColumn('msg', 'text', text)
        .addColumn('ip', 'text', text)
        .addColumn('time', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('op_logs_tenant_time').on('op_logs').columns(['tenant_id', 'time']).execute();

      await db.schema
        .createTable('sys_logs')
        .addColumn('id', idType, id)
        .addColumn('tenant_id', 'integer', (c) => c.references('tenants.id').onDelete('cascade'))
        .addColumn('level', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('message', 'text', text)
        .addColumn('time', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sys_logs_tenant_time').on('sys_logs').columns(['tenant_id', 'time']).execute();

      await db.schema
        .createTable('avatars')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'integer', (c) => c.references('tenants.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('bytes', bytes, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('firmware')
        .addColumn('id', idType, id)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('bytes', bytes, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        'firmware',
        'avatars',
        'sys_logs',
        'op_logs',
        'login_attempts',
        'sessions',
        'store_params',
        'user_stores',
        'stores',
        'users',
        'tenants',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}
