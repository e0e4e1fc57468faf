import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
} from 'kysely';

/*
 * SQLite as the server uses it (docs/SERVER.md, "SQLite: one writer, one reader"). better-sqlite3
 * has one connection per handle and runs each statement synchronously; Kysely's own driver lends
 * that one connection to one caller at a time, so a transaction that spans event-loop turns (a
 * 100,000-row import written in slices) made every other request's read wait for its commit.
 *
 * Here a database in a file has two connections: the writer runs every statement that writes and
 * every transaction, one caller at a time as before; a read-only reader answers every statement
 * outside a transaction that only reads, at once, whatever the writer holds. In WAL mode the
 * reader sees the last committed state, never a transaction's uncommitted rows: a read during an
 * import sees the store as it was before it, and then all of it. A database in memory has only
 * the writer (a second connection would open another, empty database).
 */

/**
 * The checkpointer's code (plain JavaScript: a worker has no TypeScript loader). Every second, if
 * the WAL file changed since the last look, it copies the WAL into the database file
 * (`wal_checkpoint(PASSIVE)`: it waits for no reader or writer). With SQLite's automatic
 * checkpoint, the commit that crossed 1,000 pages copied them on the request thread: ~90 ms
 * after a 100,000-row import on a loaded 2-core machine (the commit itself ~35 ms).
 */
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
let seen = '';
const look = () => {
  try {
    const wal = statSync(workerData.file + '-wal');
    const mark = wal.mtimeMs + ':' + wal.size;
    if (mark === seen) return;
    seen = mark;
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {}
};
const timer = setInterval(look, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m === 'now') { seen = ''; look(); parentPort.postMessage('done'); }
  if (m === 'close') { clearInterval(timer); try { db.close(); } catch {} parentPort.close(); }
});
`;

/** A worker thread that checkpoints the WAL of `file` off the request thread (see CHECKPOINTER). */
export class Checkpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(file: string, everyMs = 1000) {
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(CHECKPOINTER, { eval: true, workerData: { file, module, everyMs } });
    this.worker.unref();
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    // A failure to open (the file removed under it) ends the worker; the server goes on without it.
    this.worker.on('error', () => {});
  }

  /** Checkpoints now and resolves once done (tests). */
  now(): Promise<void> {
    return new Promise((resolve) => {
      this.worker.once('message', () => resolve());
      this.worker.postMessage('now');
    });
  }

  async close(): Promise<void> {
    this.worker.postMessage('close');
    // The wait keeps the process alive (a referenced timer, cleared when the worker is gone): with
    // nothing else left — a server refusing to start — an unreferenced wait let Node exit with
    // code 0 in the middle of `await close()` (infra/cluster/start.test.ts).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise((r) => (timer = setTimeout(r, 2000)))]);
    clearTimeout(timer);
    await this.worker.terminate();
  }
}

/**
 * Prepared statements per connection by SQL text, the least recently used dropped past
 * `STATEMENTS_KEPT`: preparing is parsing and planning, and the gateway runs the same few queries
 * hundreds of times a second (the reporting station, its store's open tasks). Reused only for a
 * run to completion (`all`, `run`); a stream (`iterate`) prepares its own. SQLite prepares a
 * statement again by itself when the schema changed under it.
 */
const STATEMENTS_KEPT = 256;
const statements = new WeakMap<SqliteDatabase, Map<string, SqliteStatement>>();
function prepared(db: SqliteDatabase, sqlText: string): SqliteStatement {
  let kept = statements.get(db);
  if (!kept) {
    kept = new Map();
    statements.set(db, kept);
  }
  let stmt = kept.get(sqlText);
  if (stmt) {
    kept.delete(sqlText);
  } else {
    stmt = db.prepare(sqlText);
    if (kept.size >= STATEMENTS_KEPT) kept.delete(kept.keys().next().value as string);
  }
  kept.set(sqlText, stmt);
  return stmt;
}

/** One connection as Kysely runs queries on it. */
function run(db: SqliteDatabase, query: CompiledQuery): QueryResult<unknown> {
  const stmt = prepared(db, query.sql);
  if (stmt.reader) return { rows: stmt.all(query.parameters) as unknown[] };
  const { changes, lastInsertRowid } = stmt.run(query.parameters);
  return {
    numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
    insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid),
    rows: [],
  };
}

/**
 * A first-come lock on the writer connection. A caller that had to wait takes it in a turn of its
 * own (setImmediate): when a long transaction ends, the writes queued behind it (rendered labels,
 * the engine's ticks) do not all run in the one turn, each handing over to the next in a microtask.
 */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  /** Holders and waiters. */
  private queued = 0;

  /** Resolves with the unlock function once every earlier holder has unlocked. */
  lock(): Promise<() => void> {
    const waits = this.queued > 0;
    this.queued++;
    let release = () => {};
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = this.tail;
    this.tail = before.then(() => mine);
    let done = false;
    const unlock = () => {
      if (done) return;
      done = true;
      this.queued--;
      release();
    };
    if (!waits) return before.then(() => unlock);
    return before.then(() => new Promise<() => void>((resolve) => setImmediate(() => resolve(unlock))));
  }
}

/** What Kysely is lent for one query, one `db.connection()` or one transaction. */
class Lease implements DatabaseConnection {
  private holding: Promise<() => void> | undefined;
  private unlock: (() => void) | undefined;

  constructor(private readonly driver: SplitSqliteDriver) {}

  /** Takes the writer for the rest of the lease (once, however many queries ask at once). */
  async hold(): Promise<void> {
    this.holding ??= this.driver.writerLock.lock();
    this.unlock = await this.holding;
  }

  release(): void {
    const unlock = this.unlock;
    this.unlock = undefined;
    if (this.holding && !unlock) {
      // Released while still waiting for the writer (a failed query): give it back once taken.
      void this.holding.then((u) => u());
    }
    this.holding = undefined;
    unlock?.();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.holding) {
      const rows = this.driver.readOnly(query);
      if (rows) return { rows: rows as R[] };
    }
    await this.hold();
    return run(this.driver.writer, query) as QueryResult<R>;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('Sqlite driver only supports streaming of select queries');
    // A stream is read over several turns: on the writer, held, as Kysely's own driver does.
    await this.hold();
    const stmt = this.driver.writer.prepare(query.sql);
    for (const row of stmt.iterate(query.parameters)) yield { rows: [row as R] };
  }
}

/** Kysely's driver over the writer and, for a file, the reader (see the comment above). */
export class SplitSqliteDriver implements Driver {
  readonly writerLock = new Mutex();

  constructor(
    readonly writer: SqliteDatabase,
    private readonly reader: SqliteDatabase | null,
    private readonly checkpointer: Checkpointer | null = null,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this);
  }

  /**
   * The rows of `query` read on the reader, or undefined when it must run on the writer: a
   * statement that writes (or may: transaction control, pragmas that set), or no reader.
   */
  readOnly(query: CompiledQuery): unknown[] | undefined {
    if (!this.reader) return undefined;
    const kind = query.query.kind;
    if (kind !== 'SelectQueryNode' && kind !== 'RawNode') return undefined;
    let stmt: SqliteStatement & { readonly?: boolean };
    try {
      stmt = prepared(this.reader, query.sql);
    } catch {
      return undefined; // the writer gives the error, if there is one
    }
    if (!stmt.reader || stmt.readonly !== true) return undefined;
    return stmt.all(query.parameters) as unknown[];
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as Lease).hold();
    run(this.writer, CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).release();
  }

  /** Runs `fn` holding the writer (for code that uses the better-sqlite3 handle directly). */
  async holding<T>(fn: () => T | Promise<T>): Promise<T> {
    const unlock = await this.writerLock.lock();
    try {
      return await fn();
    } finally {
      unlock();
    }
  }

  async destroy(): Promise<void> {
    await this.checkpointer?.close();
    this.reader?.close();
    this.writer.close();
  }
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Kysely's SQLite dialect (compiler, adapter, introspector) with the split driver. */
export class SplitSqliteDialect extends SqliteDialect {
  readonly driver: SplitSqliteDriver;

  constructor(writer: SqliteDatabase, reader: SqliteDatabase | null, checkpointer: Checkpointer | null) {
    super({ database: writer });
    this.driver = new SplitSqliteDriver(writer, reader, checkpointer);
  }

  override createDriver(): Driver {
    return this.driver;
  }
}
