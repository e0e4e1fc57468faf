import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from './cli';
import { openDatabase } from './infra/db/database';
import { clientDigest, verifyPassword } from './infra/lib/passwords';
import { STARTER_TEMPLATES } from './modules/templates/starter/documents';

// Issue 26 item 7: the operator's command line, each command against a real SQLite file.
const dir = mkdtempSync(join(tmpdir(), 'esl-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { DATABASE_URL: `sqlite:${join(dir, 'esl.db')}`, MQTT: 'off' };

async function run(args: string[], extra: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await runCli(args, { ...env, ...extra }, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run esl', () => {
  it('migrate: runs the migrations once, then says the database is up to date', async () => {
    const first = await run(['migrate']);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/^migrated: 001_initial/);
    expect(await run(['migrate'])).toEqual({ code: 0, out: 'the database is up to date', err: '' });
  });

  it('reset-password: a generated password or ESL_NEW_PASSWORD, the sessions ended', async () => {
    const database = openDatabase(env.DATABASE_URL);
    const now = Date.now();
    await database.db
      .insertInto('users')
      .values({
        tenant_id: null,
        username: 'lost',
        name: 'Lost',
        password_hash: 'x',
        roles: 'admin',
        avatar_key: null,
        last_login_at: null,
        introduction: '',
        created_at: now,
      } as never)
      .execute();
    const { id } = await database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'lost')
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto('sessions')
      .values({
        id: 'old',
        user_id: id,
        tenant_id: null,
        store_id: null,
        created_at: now,
        expires_at: now + 1e9,
        ip: '',
        role: null,
      } as never)
      .execute();
    await database.close();

    const generated = await run(['reset-password', 'LOST']);
    expect(generated.code, generated.err).toBe(0);
    const password = /shown only now\): (\S+);/.exec(generated.out)?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(16);
    const hashOf = async () => {
      const db = openDatabase(env.DATABASE_URL);
      const row = await db.db
        .selectFrom('users')
        .select('password_hash')
        .where('username', '=', 'lost')
        .executeTakeFirstOrThrow();
      await db.close();
      return row.password_hash;
    };
    expect(await verifyPassword(await hashOf(), clientDigest(password))).toBe(true);
    const check = openDatabase(env.DATABASE_URL);
    expect(await check.db.selectFrom('sessions').select('id').where('user_id', '=', id).execute()).toEqual([]);
    await check.close();

    const given = await run(['reset-password', 'lost'], { ESL_NEW_PASSWORD: 'chosen-1' });
    expect(given).toMatchObject({ code: 0, out: expect.stringContaining('ESL_NEW_PASSWORD') });
    expect(given.out).not.toContain('chosen-1');
    expect(await verifyPassword(await hashOf(), clientDigest('chosen-1'))).toBe(true);

    expect(await run(['reset-password', 'nobody'])).toMatchObject({ code: 1, err: 'no user "nobody"' });
    expect(await run(['reset-password', 'lost', '--tenant', '99999'])).toMatchObject({ code: 1 });
    expect(await run(['reset-password', 'lost', '--tenant', 'x'])).toMatchObject({ code: 2 });
    expect(await run(['reset-password'])).toMatchObject({ code: 2 });
  });

  it('backup: an online SQLite backup that opens with the data; PostgreSQL: pg_dump guidance', async () => {
    const file = join(dir, 'copy.db');
    const res = await run(['backup', file]);
    expect(res.code, res.err).toBe(0);
    expect(existsSync(file)).toBe(true);
    const copy = new SQLite(file, { readonly: true });
    expect(copy.prepare("select count(*) as n from users where username = 'lost'").get()).toEqual({ n: 1 });
    copy.close();
    expect((await run(['backup'])).code).toBe(2);
    const pg = await run(['backup', file], { DATABASE_URL: 'postgres://esl@db-host/esl' });
    expect(pg.code).toBe(0);
    expect(pg.out).toContain('pg_dump');
  });

  it("restore: the backup's content comes back, equal table by table; refused while a server runs", async () => {
    const file = join(dir, 'before.db');
    expect((await run(['backup', file])).code).toBe(0);
    const dump = (path: string) => {
      const db = new SQLite(path, { readonly: true });
      const tables = db.prepare("select name from sqlite_master where type = 'table' order by name").all() as {
        name: string;
      }[];
      const rows = Object.fromEntries(tables.map((t) => [t.name, db.prepare(`select * from "${t.name}"`).all()]));
      db.close();
      return rows;
    };
    const before = dump(file);
    // Changes after the backup: a new tenant. The restore takes the database back to the backup.
    expect((await run(['create-tenant', 'Later Shop', '--admin', 'later'])).code).toBe(0);
    expect(dump(join(dir, 'esl.db'))).not.toEqual(before);
    const res = await run(['restore', file]);
    expect(res.code, res.err).toBe(0);
    expect(dump(join(dir, 'esl.db'))).toEqual(before);

    expect(await run(['restore', join(dir, 'missing.db')])).toMatchObject({ code: 2 });
    const other = join(dir, 'other.db');
    new SQLite(other).exec('create table t (x)');
    expect(await run(['restore', other])).toMatchObject({ code: 1, err: expect.stringContaining('not a backup') });
    // A live server process on the database (its lease): refused, the database untouched.
    const database = openDatabase(env.DATABASE_URL);
    await database.db
      .insertInto('cluster_leases')
      .values({ name: 'process:esl-1', owner: 'esl-1', until: Date.now() + 60_000, info: '{}' })
      .execute();
    await database.close();
    expect(await run(['restore', file])).toMatchObject({ code: 1, err: expect.stringContaining('stop it first') });
    const db = new SQLite(join(dir, 'esl.db'));
    db.prepare("delete from cluster_leases where name = 'process:esl-1'").run();
    db.close();
    expect((await run(['restore', file], { DATABASE_URL: 'postgres://esl@db-host/esl' })).out).toContain('pg_restore');
  });

  it('create-tenant: a tenant whose administrator signs in; a taken or invalid name is refused', async () => {
    const res = await run(['create-tenant', 'North Shop', '--admin', 'North.Admin', '--company', 'North Ltd'], {
      ESL_NEW_PASSWORD: 'north-secret',
    });
    expect(res.code, res.err).toBe(0);
    expect(res.out).toMatch(/^created tenant \d+ "North Shop" with its administrator north.admin/);
    const database = openDatabase(env.DATABASE_URL);
    try {
      const row = await database.db
        .selectFrom('users')
        .innerJoin('tenants', 'tenants.id', 'users.tenant_id')
        .select(['users.password_hash', 'users.roles', 'tenants.company', 'tenants.id'])
        .where('users.username', '=', 'north.admin')
        .executeTakeFirstOrThrow();
      expect([row.roles, row.company]).toEqual(['admin', 'North Ltd']);
      expect(await verifyPassword(row.password_hash, clientDigest('north-secret'))).toBe(true);
      // With the starter templates, as the operator's call gives them (issue 27 item 6).
      const templates = await database.db
        .selectFrom('templates')
        .select('name')
        .where('tenant_id', '=', row.id)
        .execute();
      expect(templates).toHaveLength(STARTER_TEMPLATES.length);
    } finally {
      await database.close();
    }
    const generated = await run(['create-tenant', 'South Shop', '--admin', 'south']);
    expect(generated.out).toMatch(/password \(shown only now\): \S{16}$/);
    expect(await run(['create-tenant', 'Again', '--admin', 'north.admin'])).toMatchObject({
      code: 1,
      err: 'the username "north.admin" is taken',
    });
    expect(await run(['create-tenant', 'Bad', '--admin', 'no spaces'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('--admin'),
    });
    expect((await run(['create-tenant', '--admin', 'x'])).code).toBe(2);
  });

  it('openapi: prints the document', async () => {
    const res = await run(['openapi']);
    expect(res.code).toBe(0);
    const doc = JSON.parse(res.out) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/user/login');
  });

  it('check-config: valid settings pass; a bad or empty PORT, a bad TRUST_PROXY stop naming the variable', async () => {
    expect(await run(['check-config'], { PORT: '9000' })).toMatchObject({ code: 0 });
    expect(await run(['check-config'], { PORT: 'eighty' })).toMatchObject({
      code: 1,
      err: expect.stringContaining('PORT'),
    });
    expect(await run(['check-config'], { PORT: '' })).toMatchObject({
      code: 1,
      err: 'PORT must be a port number (got "")',
    });
    expect(await run(['check-config'], { TRUST_PROXY: 'lb' })).toMatchObject({
      code: 1,
      err: expect.stringContaining('TRUST_PROXY'),
    });
    expect(await run(['check-config'], { SHUTDOWN_TIMEOUT_MS: '-1' })).toMatchObject({
      code: 1,
      err: expect.stringContaining('SHUTDOWN_TIMEOUT_MS'),
    });
    // No silent defaults: a bad number or switch names its variable (an empty one means the default).
    for (const [name, bad] of [
      ['SESSION_TTL_HOURS', 'twelve'],
      ['LOGIN_RATE_LIMIT', '0'],
      ['OPEN_RATE_LIMIT', '-5'],
      ['CALLBACK_TIMEOUT_MS', 'soon'],
      ['READ_CACHE', 'maybe'],
      ['CALLBACK_ALLOW_PRIVATE', 'sure'],
      ['LOG_LEVEL', 'loud'],
      ['WORKERS', '1.5'],
      ['RENDER_WORKERS', 'x'],
      ['MQTT_PORT', '70000'],
      ['MQTT', 'perhaps'],
    ])
      expect(await run(['check-config'], { MQTT: 'on', [name]: bad }), name).toMatchObject({
        code: 1,
        err: expect.stringContaining(name),
      });
    expect(
      await run(['check-config'], { SESSION_TTL_HOURS: '', READ_CACHE: 'off', LOG_LEVEL: 'info', WORKERS: '' }),
    ).toMatchObject({ code: 0 });
  });

  it('an unknown command prints the usage', async () => {
    const res = await run(['frobnicate']);
    expect(res.code).toBe(2);
    expect(res.err).toContain('usage: npm run esl');
  });
});
