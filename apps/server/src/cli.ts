import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AddTenantBody } from '@esl/contract';
import SQLite from 'better-sqlite3';
import { liveLeases } from './infra/cluster/repository';
import { configFromEnv, listenFromEnv, shutdownFromEnv, workersFromEnv } from './infra/config';
import { dialectOf, openDatabase, sqliteHandleOf } from './infra/db/database';
import { migrateToLatest } from './infra/db/migrate';
import { clientDigest, hashPassword } from './infra/lib/passwords';
import { openApiDocument } from './infra/openapi/document';
import { createTenantWithAdmin } from './modules/tenants/service';
import { resetPasswordByName, usernameTaken } from './modules/users/service';

/*
 * The operator's command line (issue 26 item 7): `npm run esl -- <command>`, with the server's
 * environment (DATABASE_URL, DATA_DIR, …). Each command answers an exit code; tests call runCli.
 */

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const USAGE = [
  'usage: npm run esl -- <command>',
  '  reset-password <username> [--tenant ID]  a new password (ESL_NEW_PASSWORD, or one generated and printed)',
  '  migrate                                   run pending database migrations, nothing else',
  '  create-tenant <name> --admin <username> [--company C]  a tenant and its administrator (ESL_NEW_PASSWORD, or one generated and printed)',
  '  backup <file>                             SQLite: an online backup to <file>; PostgreSQL: how to use pg_dump',
  '  restore <file>                            SQLite: replace the database with a backup (servers stopped); PostgreSQL: how to use pg_restore',
  '  openapi                                   print the OpenAPI document (JSON)',
  '  check-config                              check the environment as the server reads it',
].join('\n');

export async function runCli(args: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'openapi':
        io.out(JSON.stringify(openApiDocument(), null, 2));
        return 0;
      case 'check-config':
        return checkConfig(env, io);
      case 'migrate':
        return await migrate(env, io);
      case 'backup':
        return await backup(rest[0], env, io);
      case 'reset-password':
        return await resetPassword(rest, env, io);
      case 'create-tenant':
        return await createTenant(rest, env, io);
      case 'restore':
        return await restore(rest[0], env, io);
      default:
        io.err(command ? `unknown command "${command}"\n${USAGE}` : USAGE);
        return 2;
    }
  } catch (err) {
    io.err(err instanceof Error ? err.message : String(err));
    return 1;
  }
}

function checkConfig(env: NodeJS.ProcessEnv, io: CliIo): number {
  const config = configFromEnv(env);
  const { port, host } = listenFromEnv(env);
  shutdownFromEnv(env);
  workersFromEnv(env);
  const database = dialectOf(config.databaseUrl) === 'postgres' ? 'PostgreSQL' : config.databaseUrl;
  io.out(`configuration is valid: listen ${host}:${port}, database ${database}, broker ${config.mqtt?.mode ?? 'off'}`);
  return 0;
}

async function migrate(env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const database = openDatabase(configFromEnv(env).databaseUrl);
  try {
    const result = await migrateToLatest(database);
    const ran = (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    io.out(ran.length ? `migrated: ${ran.join(', ')}` : 'the database is up to date');
    return 0;
  } finally {
    await database.close();
  }
}

async function backup(file: string | undefined, env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const url = configFromEnv(env).databaseUrl;
  if (dialectOf(url) === 'postgres') {
    io.out(
      [
        'PostgreSQL: back up with pg_dump from a machine that reaches the database (docs/DEPLOY.md, "Backups"):',
        '  pg_dump --format=custom --file=esl.dump "$DATABASE_URL"',
        'and restore into an empty database with:',
        '  pg_restore --no-owner --dbname="$DATABASE_URL" esl.dump',
      ].join('\n'),
    );
    return 0;
  }
  if (!file) {
    io.err('backup needs the file to write: npm run esl -- backup <file>');
    return 2;
  }
  const database = openDatabase(url);
  try {
    const handle = sqliteHandleOf(database.db);
    if (!handle) throw new Error('no SQLite handle');
    // SQLite's online backup: a consistent copy while servers keep writing (copying a WAL file is not).
    await handle.backup(resolve(file));
    io.out(`backed up ${url.replace(/^sqlite:/, '')} to ${resolve(file)}`);
    return 0;
  } finally {
    await database.close();
  }
}

async function resetPassword(args: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const username = args[0]?.trim().toLowerCase();
  const at = args.indexOf('--tenant');
  const tenantRaw = at >= 0 ? args[at + 1] : undefined;
  if (!username || username.startsWith('--') || (at >= 0 && !/^\d+$/.test(tenantRaw ?? ''))) {
    io.err('usage: npm run esl -- reset-password <username> [--tenant ID]');
    return 2;
  }
  const config = configFromEnv(env);
  const database = openDatabase(config.databaseUrl);
  try {
    const given = env.ESL_NEW_PASSWORD;
    const password = given || randomBytes(12).toString('base64url');
    const hash = await hashPassword(clientDigest(password), config.passwordCost);
    const tenantId = tenantRaw === undefined ? undefined : Number(tenantRaw);
    if (!(await resetPasswordByName(database.db, username, tenantId, hash))) {
      io.err(`no user "${username}"${tenantRaw === undefined ? '' : ` in tenant ${tenantRaw}`}`);
      return 1;
    }
    io.out(
      given
        ? `set the password of ${username} from ESL_NEW_PASSWORD; its sessions are ended`
        : `new password of ${username} (shown only now): ${password}; its sessions are ended`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

/** The value after `--flag` in args; undefined when absent, '' when the flag ends the line. */
function flag(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at < 0 ? undefined : (args[at + 1] ?? '');
}

async function createTenant(args: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const given = env.ESL_NEW_PASSWORD;
  const password = given || randomBytes(12).toString('base64url');
  const parsed = AddTenantBody.safeParse({
    name: args[0]?.startsWith('--') ? '' : args[0],
    account: flag(args, '--admin'),
    company: flag(args, '--company') ?? '',
    sapwd: clientDigest(password),
  });
  if (!parsed.success) {
    const fields = [
      ...new Set(parsed.error.issues.map((i) => (i.path[0] === 'account' ? '--admin' : String(i.path[0])))),
    ];
    io.err(`invalid ${fields.join(', ')}\nusage: npm run esl -- create-tenant <name> --admin <username> [--company C]`);
    return 2;
  }
  const config = configFromEnv(env);
  const database = openDatabase(config.databaseUrl);
  try {
    const body = parsed.data;
    if (await usernameTaken(database.db, body.account.toLowerCase())) {
      io.err(`the username "${body.account.toLowerCase()}" is taken`);
      return 1;
    }
    const passwordHash = await hashPassword(body.sapwd, config.passwordCost);
    const tenant = await createTenantWithAdmin(database.db, { ...body, passwordHash, now: config.now() });
    io.out(
      `created tenant ${tenant.id} "${tenant.name}" with its administrator ${tenant.account}` +
        (given ? ' (password from ESL_NEW_PASSWORD)' : `, password (shown only now): ${password}`),
    );
    return 0;
  } finally {
    await database.close();
  }
}

/**
 * SQLite: the database file becomes the backup's content (SQLite's backup API, page by page into
 * the live file, so its WAL stays consistent), then pending migrations run (a backup of an older
 * version). Refused while a server process holds a lease on the database.
 */
async function restore(file: string | undefined, env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const config = configFromEnv(env);
  if (dialectOf(config.databaseUrl) === 'postgres') {
    io.out(
      [
        'PostgreSQL: stop the servers, then restore a pg_dump file into the database (docs/DEPLOY.md, "Backups"):',
        '  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" esl.dump',
      ].join('\n'),
    );
    return 0;
  }
  if (!file || !existsSync(file)) {
    io.err(file ? `no file ${resolve(file)}` : 'restore needs the backup file: npm run esl -- restore <file>');
    return 2;
  }
  const source = new SQLite(resolve(file), { readonly: true, fileMustExist: true });
  try {
    const tables = source.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[];
    if (!tables.some((t) => t.name === 'kysely_migration') || !tables.some((t) => t.name === 'tenants')) {
      io.err(`${resolve(file)} is not a backup of this platform's database`);
      return 1;
    }
    const database = openDatabase(config.databaseUrl);
    try {
      const live = await liveLeases(database.db, 'process:', config.now());
      if (live.length) {
        io.err(`a server is running on this database (${live.map((l) => l.name).join(', ')}): stop it first`);
        return 1;
      }
    } finally {
      await database.close();
    }
    await source.backup(config.databaseUrl.replace(/^sqlite:/, ''));
  } finally {
    source.close();
  }
  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
  } finally {
    await database.close();
  }
  io.out(`restored ${config.databaseUrl.replace(/^sqlite:/, '')} from ${resolve(file)}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) };
  runCli(process.argv.slice(2), process.env, io).then((code) => process.exit(code));
}
