import { Migrator, NO_MIGRATIONS } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { openDatabase } from './database';
import { migrateToLatest } from './migrate';
import { migrations } from './migrations';

const TABLES = [
  'avatars',
  'firmware',
  'login_attempts',
  'op_logs',
  'sessions',
  'store_params',
  'stores',
  'sys_logs',
  'tenants',
  'user_stores',
  'users',
];

describe.each(await testDatabases())('migrations on $name', (target) => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it('run from empty, are idempotent, and roll back to empty', async () => {
    const created = await target.create();
    drops.push(created.drop);
    const database = openDatabase(created.url);
    try {
      const first = await migrateToLatest(database);
      expect(first.results?.map((r) => [r.migrationName, r.status])).toEqual(
        Object.keys(migrations(database.dialect)).map((name) => [name, 'Success']),
      );
      const tables = (await database.db.introspection.getTables()).map((t) => t.name).sort();
      expect(tables).toEqual(expect.arrayContaining(TABLES));

      const second = await migrateToLatest(database);
      expect(second.results).toEqual([]);

      const migrator = new Migrator({
        db: database.db,
        provider: { getMigrations: async () => migrations(database.dialect) },
      });
      const down = await migrator.migrateTo(NO_MIGRATIONS);
      expect(down.error).toBeUndefined();
      expect(await database.db.introspection.getTables()).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('keep millisecond times and bytes intact', async () => {
    const created = await target.create();
    drops.push(created.drop);
    const database = openDatabase(created.url);
    try {
      await migrateToLatest(database);
      const time = Date.UTC(2030, 5, 1, 12, 0, 0, 123);
      const bytes = Buffer.from([0, 1, 2, 254, 255]);
      await database.db
        .insertInto('firmware')
        .values({ kind: 'tag', version: '1.0', name: 'x.bin', size: 5, bytes, created_at: time })
        .execute();
      const row = await database.db.selectFrom('firmware').selectAll().executeTakeFirstOrThrow();
      expect(row.created_at).toBe(time);
      expect(Buffer.from(row.bytes).equals(bytes)).toBe(true);
    } finally {
      await database.close();
    }
  });
});
