import { randomBytes } from 'node:crypto';
import { buildApp } from './app';
import { configFromEnv } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { DEMO_PASSWORD, DEMO_USERS, ensureOperator, OPERATOR_USERNAME, seedDemo } from './demo/seed';
import { writeSysLog } from './modules/logs/service';
import { clientDigest, hashPassword } from './modules/session/passwords';

/** `node --import tsx apps/server/src/main.ts [--demo]`: migrate, seed if asked, listen. */
async function main(): Promise<void> {
  const demo = process.argv.includes('--demo');
  const config = configFromEnv();
  const port = Number(process.env.PORT ?? 8080);
  const host = process.env.HOST ?? '127.0.0.1';

  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
  } catch (err) {
    console.error(`Database migration failed: ${err instanceof Error ? err.message : String(err)}`);
    await database.close().catch(() => {});
    process.exit(1);
  }

  const notes: string[] = [];
  if (demo) {
    const seeded = await seedDemo(database.db, config.now(), undefined, config.passwordCost);
    notes.push(`Demo tenant ready (${seeded.stores.size} stores). Logins, password ${DEMO_PASSWORD}:`);
    for (const u of DEMO_USERS) notes.push(`  ${u.username.padEnd(10)} ${u.name}`);
    notes.push(
      seeded.operatorCreated
        ? `  ${OPERATOR_USERNAME.padEnd(10)} platform operator (hidden route /saadmin/sa/adm)`
        : `  ${OPERATOR_USERNAME.padEnd(10)} platform operator (already existed: its password was left unchanged)`,
    );
  } else {
    const given = process.env.ESL_ADMIN_PASSWORD;
    const password = given || randomBytes(12).toString('base64url');
    if (
      await ensureOperator(database.db, config.now(), await hashPassword(clientDigest(password), config.passwordCost))
    ) {
      notes.push(
        given
          ? `Created the platform operator ${OPERATOR_USERNAME} with the password from ESL_ADMIN_PASSWORD.`
          : `Created the platform operator ${OPERATOR_USERNAME}; its password (shown only now): ${password}`,
      );
    }
  }

  const app = await buildApp(config, database);
  await app.listen({ port, host });
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const url = config.publicUrl || `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${actualPort}`;
  await writeSysLog(database, {
    tenantId: null,
    level: 'info',
    event: 'server.start',
    message: `listening on ${host}:${actualPort}`,
    time: config.now(),
  });
  console.log(`ESL server listening on ${url}`);
  for (const line of notes) console.log(line);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await writeSysLog(database, {
      tenantId: null,
      level: 'info',
      event: 'server.stop',
      message: `stopping on ${signal}`,
      time: config.now(),
    });
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
