import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresAdapter,
  type PostgresCursor,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
  type SqliteDatabase,
  type SqliteStatement,
  sql,
} from 'kysely';
import pg from 'pg';
import { hotStatementName } from './query';
import type { Database } from './schema';
import { Checkpointer, SplitSqliteDialect, type SplitSqliteDriver } from './sqlite';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

// int8 (counts, millisecond times) as numbers: every value we keep fits in 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export function dialectOf(url: string): Dialect {
  return /^postgres(ql)?:\/\//.test(url) ? 'postgres' : 'sqlite';
}

/** The dialect a Kysely instance (or one of its transactions) speaks. */
export function dialectOfDb(db: Kysely<Database>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

const sqliteHandles = new WeakMap<
  Kysely<Database>,
  { raw: SQLite.Database; driver: SplitSqliteDriver; checkpointer: Checkpointer | null }
>();

/** The WAL checkpointer of a SQLite file opened here (none for `:memory:` or PostgreSQL). */
export function sqliteCheckpointerOf(db: Kysely<Database>): Checkpointer | undefined {
  return sqliteHandles.get(db)?.checkpointer ?? undefined;
}

/**
 * The better-sqlite3 handle of the writer connection behind a Kysely instance opened here (SQLite
 * only; undefined for PostgreSQL and for a transaction's Kysely). For the few hot paths that run
 * one prepared statement per row; they must use it inside `holdingSqliteWriter`, so nothing of
 * theirs interleaves with a Kysely transaction.
 */
export function sqliteHandleOf(db: Kysely<Database>): SQLite.Database | undefined {
  return sqliteHandles.get(db)?.raw;
}

/**
 * Runs `fn` holding the SQLite writer of `db` (opened here): no Kysely transaction is open on it
 * meanwhile, and none starts before `fn` settles.
 */
export function holdingSqliteWriter<T>(db: Kysely<Database>, fn: () => T | Promise<T>): Promise<T> {
  const handles = sqliteHandles.get(db);
  if (!handles) throw new Error('not a SQLite database opened by openDatabase');
  return handles.driver.holding(fn);
}

function openSqlite(file: string, readonly: boolean): SQLite.Database {
  const sqlite = new SQLite(file, readonly ? { readonly: true, fileMustExist: true } : {});
  if (!readonly) {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
  }
  sqlite.pragma('busy_timeout = 5000');
  return sqlite;
}

export function openDatabase(url: string): Db {
  if (dialectOf(url) === 'postgres') {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle connection the database closes (a restart, an administrator) leaves the pool and is
    // replaced on the next query; without a listener its 'error' event would end the process.
    pool.on('error', (err) => process.stderr.write(`database: an idle connection was closed (${err.message})\n`));
    // Named statements (the hot queries, see `preparing`) run with one generic plan per
    // connection: planning a three-table page query costs several times executing it, and the
    // hot queries' plans do not depend on their values (an index on the filtered columns + id).
    // Unnamed statements, everything else, are still planned with their values.
    pool.on('connect', (client) => {
      client.query('set plan_cache_mode = force_generic_plan').catch(() => {});
      // The pool listens on idle connections only: one closed while lent out (a restart or an
      // administrator ending it inside a transaction, between two statements) emitted 'error' with
      // nobody listening and ended the server. Its next statement fails and the caller sees that
      // (a transaction rolls back, a lost one runs again); the pool drops the broken connection.
      client.on('error', (err) => {
        process.stderr.write(`database: a connection in use was closed (${err.message})\n`);
      });
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparing(pool) }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const file = url.replace(/^sqlite:/, '') || ':memory:';
  const inMemory = file === ':memory:' || file.startsWith('file::memory:');
  if (!inMemory) mkdirSync(dirname(file), { recursive: true });
  const writer = openSqlite(file, false);
  // A second connection to a file reads while the writer is in a transaction, and a worker
  // thread checkpoints the WAL, which the writer's commits no longer do (sqlite.ts).
  const reader = inMemory ? null : openSqlite(file, true);
  let checkpointer: Checkpointer | null = null;
  if (!inMemory) {
    writer.pragma('wal_autocheckpoint = 0');
    checkpointer = new Checkpointer(file);
  }
  const dialect = new SplitSqliteDialect(
    cachingStatements(writer),
    reader ? cachingStatements(reader) : null,
    checkpointer,
  );
  const db = new Kysely<Database>({ dialect });
  sqliteHandles.set(db, { raw: writer, driver: dialect.driver, checkpointer });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * The pool as Kysely sees it, running the hot queries (db/query.ts runCached) as named prepared
 * statements: PostgreSQL then parses and plans each once per connection rather than per request.
 * Everything else (one-off texts, IN lists of varying length) stays unnamed.
 */
function preparing(pool: pg.Pool): PostgresPool {
  return {
    end: () => pool.end(),
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
      function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
      function query<R>(
        sqlOrCursor: string | PostgresCursor<R>,
        parameters?: ReadonlyArray<unknown>,
      ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
        if (typeof sqlOrCursor !== 'string') {
          return client.query(sqlOrCursor as unknown as pg.Submittable) as unknown as PostgresCursor<R>;
        }
        const values = [...(parameters ?? [])];
        const name = hotStatementName(sqlOrCursor);
        const result = name ? client.query({ name, text: sqlOrCursor, values }) : client.query(sqlOrCursor, values);
        return result as unknown as Promise<PostgresQueryResult<R>>;
      }
      return { query, release: () => client.release() };
    },
  };
}

/**
 * Kysely prepares every query anew; preparing costs more than running our small queries, so keep
 * the prepared statements by SQL text (the set of distinct statements is small and fixed).
 */
function cachingStatements(sqlite: SQLite.Database, max = 500): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql) as unknown as SqliteStatement;
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

/** Whether the database answers a trivial query (the readiness probe). */
export async function ping(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
