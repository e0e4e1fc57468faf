import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { randomHex } from '../infra/lib/random';

/** A database the server suite runs against; each `create()` makes a fresh one with a random name. */
export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  create(): Promise<{ url: string; drop(): Promise<void> }>;
}

const sqlite: TestDatabase = {
  name: 'sqlite',
  create: async () => ({ url: 'sqlite::memory:', drop: async () => {} }),
};

/**
 * SQLite in a file of its own, as in production: only there does the server read through a second
 * connection while a transaction is open (infra/db/sqlite.ts); `:memory:` has one connection.
 */
export const sqliteInFile: TestDatabase = {
  name: 'sqlite',
  create: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esl-sqlite-'));
    return { url: `sqlite:${join(dir, 'esl.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  },
};

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** An admin URL for the PostgreSQL to test on: DATABASE_URL, or 127.0.0.1:5432 as postgres or the OS user. */
async function findPostgres(): Promise<string | undefined> {
  const env = process.env.DATABASE_URL;
  if (env && /^postgres(ql)?:\/\//.test(env)) return (await canConnect(env)) ? env : undefined;
  for (const user of ['postgres', userInfo().username]) {
    const url = `postgres://${user}@127.0.0.1:5432/postgres`;
    if (await canConnect(url)) return url;
  }
  return undefined;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function postgres(adminUrl: string): TestDatabase {
  return {
    name: 'postgres',
    async create() {
      const name = `esl_test_${randomHex(6)}`;
      await admin(adminUrl, (c) => c.query(`create database ${name}`));
      return {
        url: withDatabase(adminUrl, name),
        drop: () => admin(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
      };
    },
  };
}

let found: Promise<TestDatabase[]> | undefined;

/** SQLite always; PostgreSQL too when reachable. */
export function testDatabases(): Promise<TestDatabase[]> {
  found ??= findPostgres().then((url) => (url ? [sqlite, postgres(url)] : [sqlite]));
  return found;
}

/**
 * A database that outlives one server process (a restart, a kill -9): for SQLite a file under the
 * temporary folder (`prefix` names it), for PostgreSQL a fresh database. Its removal is pushed on
 * `cleanup`.
 */
export async function durableDatabaseUrl(
  target: TestDatabase,
  prefix: string,
  cleanup: Array<() => Promise<void> | void>,
): Promise<string> {
  if (target.name === 'sqlite') {
    const file = join(tmpdir(), `${prefix}-${randomHex(6)}.db`);
    cleanup.push(() => {
      for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    });
    return `sqlite:${file}`;
  }
  const created = await target.create();
  cleanup.push(() => created.drop());
  return created.url;
}
