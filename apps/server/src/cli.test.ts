import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from './cli';
import { openDatabase } from './infra/db/database';
import { clientDigest, verifyPassword } from './infra/lib/passwords';

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
  });

  it('an unknown command prints the usage', async () => {
    const res = await run(['frobnicate']);
    expect(res.code).toBe(2);
    expect(res.err).toContain('usage: npm run esl');
  });
});
