import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, holdingSqliteWriter, openDatabase, sqliteCheckpointerOf, sqliteHandleOf } from './database';

/*
 * The SQLite driver (sqlite.ts): a read outside a transaction answers while another caller's
 * transaction is open across event-loop turns, and sees only what is committed; writes still
 * take turns with transactions. Each test orders events, it times nothing.
 */

const opened: { database: Db; dir: string }[] = [];

async function fileDatabase(): Promise<Db> {
  const dir = mkdtempSync(join(tmpdir(), 'split-sqlite-'));
  const database = openDatabase(`sqlite:${join(dir, 'esl.db')}`);
  opened.push({ database, dir });
  await sql`create table t (id integer primary key, v text not null)`.execute(database.db);
  await sql`insert into t (id, v) values (1, 'one')`.execute(database.db);
  return database;
}

afterEach(async () => {
  for (const { database, dir } of opened.splice(0)) {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A promise and its resolver. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const idsOf = async (database: Db) =>
  (
    await database.db
      .selectFrom('t' as never)
      .select('id' as never)
      .orderBy('id' as never)
      .execute()
  ).map((r) => (r as { id: number }).id);

describe('SQLite in a file, one writer and one reader', () => {
  it('answers a read while a transaction is open over several turns, without its uncommitted rows', async () => {
    const database = await fileDatabase();
    const events: string[] = [];
    const inside = gate();
    const finish = gate();
    // The transaction stays open until the read has answered, or 3 s (then the read waited for it).
    const fallback = setTimeout(finish.open, 3000);
    const transaction = database.db.transaction().execute(async (trx) => {
      await sql`insert into t (id, v) values (2, 'two')`.execute(trx);
      inside.open();
      await finish.opened;
      events.push('commit');
    });
    await inside.opened;
    const during = await idsOf(database);
    events.push('read');
    finish.open();
    await transaction;
    clearTimeout(fallback);
    expect(events).toEqual(['read', 'commit']);
    expect(during).toEqual([1]);
    expect(await idsOf(database)).toEqual([1, 2]);
  });

  it('lets a read see nothing of a transaction that rolls back, and everything of one that commits', async () => {
    const database = await fileDatabase();
    const inside = gate();
    const finish = gate();
    const failing = database.db.transaction().execute(async (trx) => {
      for (let i = 10; i < 20; i++) {
        await sql`insert into t (id, v) values (${i}, 'x')`.execute(trx);
        if (i === 15) inside.open();
      }
      await finish.opened;
      throw new Error('half-way');
    });
    await inside.opened;
    expect(await idsOf(database)).toEqual([1]);
    finish.open();
    await expect(failing).rejects.toThrow('half-way');
    expect(await idsOf(database)).toEqual([1]);
  });

  it('makes a write outside the transaction wait for its end, and the hot paths too', async () => {
    const database = await fileDatabase();
    const events: string[] = [];
    const inside = gate();
    const finish = gate();
    const transaction = database.db.transaction().execute(async (trx) => {
      await sql`insert into t (id, v) values (2, 'two')`.execute(trx);
      inside.open();
      await finish.opened;
      events.push('commit');
    });
    await inside.opened;
    const write = sql`insert into t (id, v) values (3, 'three')`.execute(database.db).then(() => events.push('write'));
    const hot = holdingSqliteWriter(database.db, () => events.push('hot'));
    // Several turns: neither may run inside the open transaction.
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    events.push('release');
    finish.open();
    await Promise.all([transaction, write, hot]);
    expect(events.slice(0, 2)).toEqual(['release', 'commit']);
    expect(events.slice(2).sort()).toEqual(['hot', 'write']);
    expect(await idsOf(database)).toEqual([1, 2, 3]);
  });

  it('hands the writer to each caller that waited for it in a turn of its own', async () => {
    const database = await fileDatabase();
    const events: string[] = [];
    const inside = gate();
    const finish = gate();
    const transaction = database.db.transaction().execute(async (trx) => {
      await sql`insert into t (id, v) values (2, 'two')`.execute(trx);
      inside.open();
      await finish.opened;
    });
    await inside.opened;
    const first = holdingSqliteWriter(database.db, () => {
      events.push('first');
      setImmediate(() => events.push('a turn'));
    });
    const second = holdingSqliteWriter(database.db, () => events.push('second'));
    finish.open();
    await Promise.all([transaction, first, second]);
    // Handed over in a microtask, the second would run before any I/O or timer could.
    expect(events).toEqual(['first', 'a turn', 'second']);
  });

  it('copies the WAL into the database file in a worker thread, not in the commit', async () => {
    const database = await fileDatabase();
    const raw = sqliteHandleOf(database.db);
    const checkpointer = sqliteCheckpointerOf(database.db);
    if (!raw || !checkpointer) throw new Error('no SQLite file');
    expect(raw.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const size = () => statSync(raw.name).size;
    await checkpointer.now();
    const before = size();
    // ~8 MB in one transaction: well past the 1,000 pages SQLite's own checkpoint copies at a commit.
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 40; i++) {
        await sql`insert into t (v) select hex(randomblob(100)) from (with recursive n(x) as
          (select 1 union all select x + 1 from n where x < 1000) select x from n)`.execute(trx);
      }
    });
    expect(size()).toBe(before);
    await checkpointer.now();
    expect(size()).toBeGreaterThan(before + 4_000_000);
  });

  it('keeps a connection that wrote on the writer, so it reads its own uncommitted rows', async () => {
    const database = await fileDatabase();
    const seen = await database.db.transaction().execute(async (trx) => {
      await sql`insert into t (id, v) values (4, 'four')`.execute(trx);
      return (
        await trx
          .selectFrom('t' as never)
          .select('id' as never)
          .execute()
      ).length;
    });
    expect(seen).toBe(2);
    const held = await database.db.connection().execute(async (conn) => {
      await sql`insert into t (id, v) values (5, 'five')`.execute(conn);
      return (
        await conn
          .selectFrom('t' as never)
          .select('id' as never)
          .execute()
      ).length;
    });
    expect(held).toBe(3);
  });
});
