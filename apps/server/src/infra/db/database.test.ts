import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { openDatabase } from './database';
import { runCached } from './query';

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

  it('survive the database closing a connection lent to a transaction between two statements (no crash; the transaction fails, the next one works)', async () => {
    const created = await postgres!.create();
    const database = openDatabase(created.url);
    try {
      const done = database.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        const admin = new pg.Client({ connectionString: created.url });
        await admin.connect();
        await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
        await admin.end();
        await new Promise((resolve) => setTimeout(resolve, 300));
        await sql`select 1`.execute(trx);
      });
      await expect(done).rejects.toThrow();
      const again = await database.db
        .transaction()
        .execute((trx) => sql<{ one: number }>`select 1 as one`.execute(trx));
      expect(again.rows[0].one).toBe(1);
    } finally {
      await database.close();
      await created.drop();
    }
  });

  // A PostgreSQL on the server's own machine is best reached through its Unix socket (docs/DEPLOY.md
  // section 3; the gateway figure stored every tag that way, docs/PERFORMANCE.md): the URL form
  // the documents give must connect by the socket, not fall back to TCP.
  it.skipIf(!existsSync('/var/run/postgresql/.s.PGSQL.5432'))(
    'connect through the Unix socket with the URL form docs/DEPLOY.md gives',
    async () => {
      const created = await postgres!.create();
      const name = new URL(created.url).pathname.slice(1);
      const user = new URL(created.url).username || 'postgres';
      const database = openDatabase(`postgres://${user}@%2Fvar%2Frun%2Fpostgresql/${name}`);
      try {
        const { rows } = await sql<{
          addr: string | null;
          db: string;
        }>`select inet_server_addr()::text as addr, current_database() as db`.execute(database.db);
        expect(rows[0]).toEqual({ addr: null, db: name });
      } finally {
        await database.close();
        await created.drop();
      }
    },
  );

  it('run the hot queries as named statements with a generic plan, planned once per connection', async () => {
    const created = await postgres!.create();
    const database = openDatabase(created.url);
    try {
      const { db } = database;
      const hot = (n: number) => runCached(db, 'test.hot', [n], () => db.selectNoFrom((eb) => eb.val(n).as('n')));
      for (let i = 0; i < 3; i++) expect(Number((await hot(i))[0].n)).toBe(i);
      // The pool hands back the connection used last, so this reads that connection's statements.
      const { rows } = await sql<{ statement: string; generic_plans: number; custom_plans: number }>`
        select statement, generic_plans, custom_plans from pg_prepared_statements`.execute(db);
      expect(rows).toHaveLength(1);
      expect(rows[0].generic_plans).toBeGreaterThan(0);
      expect(Number(rows[0].custom_plans)).toBe(0);
      // A one-off query stays unnamed.
      await sql`select 2 as two`.execute(db);
      const after = await sql<{ n: number }>`select count(*) as n from pg_prepared_statements`.execute(db);
      expect(Number(after.rows[0].n)).toBe(1);
    } finally {
      await database.close();
      await created.drop();
    }
  });
});
