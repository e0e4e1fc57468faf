import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { buildApp } from './app';
import { seedDemoFirmware } from './demo/firmware';
import { DEMO_PASSWORD, DEMO_USERS, ensureOperator, OPERATOR_USERNAME, seedDemo } from './demo/seed';
import { startDemoStations, startDemoWall } from './demo/stations';
import { writeSysLog } from './infra/audit/syslog';
import {
  type BrokerMode,
  ClusterRefusal,
  joinCluster,
  type Membership,
  workersRefusal,
} from './infra/cluster/membership';
import { configFromEnv, listenFromEnv, shutdownFromEnv, workersFromEnv } from './infra/config';
import { dialectOf, openDatabase } from './infra/db/database';
import { migrateToLatest } from './infra/db/migrate';
import { clientDigest, hashPassword } from './infra/lib/passwords';
import { logLine, setHumanLines } from './infra/log-line';
import { VERSION } from './infra/version';

/**
 * `node --import tsx apps/server/src/main.ts [--demo]`: migrate, seed if asked, listen.
 * `WORKERS=n` (PostgreSQL and an external broker, MQTT_URL, or MQTT=off): this process prepares
 * the database, then n worker processes serve the same port (node:cluster), sharing state through
 * the database (docs/DEPLOY.md). Where several processes cannot run it refuses to start, saying why.
 */
// Every line JSON in production; the demo prints its banner as text (infra/log-line.ts).
const demo = process.argv.includes('--demo');
setHumanLines(demo);

async function main(): Promise<void> {
  if (cluster.isWorker) return worker();
  const config = configFromEnv();
  const shutdown = shutdownFromEnv(process.env);
  const { port, host } = listenAddress();
  const workers = workersFromEnv(process.env);
  const dialect = dialectOf(config.databaseUrl);
  const broker: BrokerMode = config.mqtt?.mode ?? 'none';
  const refused = workersRefusal(workers, dialect, broker);
  if (refused) {
    logLine('fatal', `Not starting: ${refused}`);
    process.exit(1);
  }

  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
  } catch (err) {
    logLine('fatal', `Database migration failed: ${err instanceof Error ? err.message : String(err)}`, { err });
    await database.close().catch(() => {});
    process.exit(1);
  }

  // Other server processes on this database: refused where several cannot run (docs/DEPLOY.md).
  let membership: Membership;
  try {
    membership = await joinCluster(database.db, {
      instanceId: config.mqtt?.mode === 'external' ? config.mqtt.instanceId : `${hostname()}-${process.pid}`,
      info: { broker, dialect, workers },
      onError: (err) => logLine('error', `renewing this process's lease failed: ${String(err)}`, { err }),
    });
  } catch (err) {
    if (!(err instanceof ClusterRefusal)) throw err;
    logLine('fatal', `Not starting: ${err.message}`);
    await database.close().catch(() => {});
    process.exit(1);
  }

  const notes: string[] = [];
  let demoTenant: number | null = null;
  if (demo) {
    const seeded = await seedDemo(database.db, config.now(), undefined, config.passwordCost);
    demoTenant = seeded.tenantId;
    await seedDemoFirmware(database.db, config.now());
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

  let actualPort: number;
  let close: () => Promise<void>;
  // From the signal on /readyz answers 503: this process's app's, or each worker's (told by message).
  let drain = () => {};
  if (workers > 1) {
    ({ port: actualPort, close, drain } = await startWorkers(workers));
  } else {
    const app = await buildApp(config, database);
    drain = () => app.health.startDraining();
    await app.listen({ port, host });
    const address = app.server.address();
    actualPort = typeof address === 'object' && address ? address.port : port;
    close = () => app.close();
    const delivery = app.delivery;
    if (delivery) {
      const stated = config.mqtt?.publicUrls ?? [];
      const where = stated.length
        ? stated.join(' or ')
        : `${delivery.url}${delivery.tlsUrl ? ` or ${delivery.tlsUrl} (TLS)` : ''}`;
      notes.unshift(`Stations connect to ${where} (MQTT, user {tenantId}.{serial})`);
    }
    const noSim = process.argv.includes('--no-sim') || /^(off|0|false|no)$/i.test(process.env.SIM ?? '');
    if (delivery && demoTenant !== null && !noSim) {
      const sim = await startDemoStations({
        db: database.db,
        tenantId: demoTenant,
        url: delivery.url,
        accounts: delivery.accounts,
        now: config.now(),
      });
      if (sim) {
        notes.push(`Simulating the demo stores' ${sim.stations.length} base stations (--no-sim or SIM=off: none)`);
        // SIM_HTTP=PORT: the simulator's store wall, every simulated tag's screen as it decoded it.
        const wallPort = process.env.SIM_HTTP?.trim();
        if (wallPort && !/^\d{1,5}$/.test(wallPort))
          throw new Error(`SIM_HTTP must be a port number (got "${wallPort}")`);
        const wall = wallPort ? await startDemoWall(sim, Number(wallPort), host) : null;
        if (wall) notes.push(`Store wall of the simulated tags: ${wall.url}`);
        close = async () => {
          await wall?.close();
          await sim.stop();
          await app.close();
        };
      }
    }
  }
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const url = config.publicUrl || `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${actualPort}`;
  await writeSysLog(database, {
    tenantId: null,
    level: 'info',
    event: 'server.start',
    message: `listening on ${host}:${actualPort}`,
    time: config.now(),
  });
  logLine('info', `ESL server ${VERSION} listening on ${url}${workers > 1 ? ` (${workers} worker processes)` : ''}`, {
    version: VERSION,
    url,
  });
  for (const line of notes) logLine('info', line);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // The hard limit: a hung connection, broker or database must not keep the process alive.
    setTimeout(() => {
      logLine('fatal', `still stopping ${shutdown.timeoutMs} ms after ${signal} (SHUTDOWN_TIMEOUT_MS): exiting now`);
      process.exit(1);
    }, shutdown.timeoutMs).unref();
    drain();
    if (shutdown.drainMs > 0) await new Promise((resolve) => setTimeout(resolve, shutdown.drainMs));
    await writeSysLog(database, {
      tenantId: null,
      level: 'info',
      event: 'server.stop',
      message: `stopping on ${signal}`,
      time: config.now(),
    });
    // The lease says this process serves: given up once the drain is over, before the app closes
    // (closing the app closes the database, and a lease left behind made `restore` and a new
    // start wait for it to run out).
    await membership.leave();
    await close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** Starts the workers and answers once every one listens (same port: node:cluster shares it). */
function startWorkers(count: number): Promise<{ port: number; close: () => Promise<void>; drain: () => void }> {
  let stopping = false;
  const fork = () => cluster.fork();
  cluster.on('exit', (w, code, signal) => {
    if (stopping) return;
    logLine('error', `worker ${w.process.pid} stopped (${signal ?? code}); starting another`);
    setTimeout(fork, 1000);
  });
  const all = () => Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
  const drain = () => {
    for (const w of all()) w.send('drain');
  };
  const close = async () => {
    stopping = true;
    await Promise.all(
      all().map(
        (w) =>
          new Promise<void>((resolve) => {
            w.once('exit', () => resolve());
            w.send('stop');
          }),
      ),
    );
  };
  return new Promise((resolve, reject) => {
    let listening = 0;
    cluster.on('message', (_w, message: { listening?: number; failed?: string }) => {
      if (message.failed) reject(new Error(message.failed));
      if (message.listening !== undefined && ++listening === count) resolve({ port: message.listening, close, drain });
    });
    for (let i = 0; i < count; i++) fork();
  });
}

/** One worker: the database is migrated and seeded already; build the app and listen. */
async function worker(): Promise<void> {
  const config = configFromEnv();
  // One MQTT client id per worker (the broker would take a shared one over from the other workers).
  if (config.mqtt?.mode === 'external' && process.env.INSTANCE_ID)
    config.mqtt.instanceId = `${config.mqtt.instanceId}-w${cluster.worker?.id ?? process.pid}`;
  const { port, host } = listenAddress();
  try {
    const app = await buildApp(config, openDatabase(config.databaseUrl));
    await app.listen({ port, host });
    const address = app.server.address();
    process.send?.({ listening: typeof address === 'object' && address ? address.port : port });
    process.on('message', (message) => {
      if (message === 'drain' || message === 'stop') app.health.startDraining();
      if (message === 'stop') void app.close().then(() => process.exit(0));
    });
    // The primary handles signals; a worker only stops when told.
    process.on('SIGINT', () => {});
    process.on('SIGTERM', () => {});
  } catch (err) {
    process.send?.({ failed: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
}

/** Where to listen (config.ts listenFromEnv): an empty or bad PORT stops the start naming it. */
function listenAddress(): { port: number; host: string } {
  return listenFromEnv(process.env);
}

main().catch((err) => {
  logLine('fatal', `not starting: ${err instanceof Error ? err.message : String(err)}`, { err });
  process.exit(1);
});
