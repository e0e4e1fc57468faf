import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases';
import { openDatabase } from './database';

const postgres = (await testDatabases()).find((d) => d.name === 'postgres');

describe.skipIf(!postgres)('PostgreSQL connections', () => {
  it('survive the database closing an idle connection (no crash, the next query works)', async () => {
    const created = await postgres!.create();
    const database = openDatabase(created.url);
    try {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
      const admin = new pg.Client({ connectionString: created.url });
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
      await admin.end();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const again = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(again.rows[0].one).toBe(1);
    } finally {
      await database.close();
      await created.drop();
    }
  });
});
