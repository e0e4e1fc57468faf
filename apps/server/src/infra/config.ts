import { isIP } from 'node:net';
import { availableParallelism, hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PasswordCost, PRODUCTION_COST } from './lib/passwords';

/** Everything the server needs to know from its surroundings; tests build one directly. */
export interface Config {
  /** `sqlite:<file>` / `sqlite::memory:` or a `postgres://` URL. */
  databaseUrl: string;
  /** Public address used in avatar URLs and the PDA configuration; empty = the request's own. */
  publicUrl: string;
  sessionTtlHours: number;
  /** Login attempts per IP per minute before @fastify/rate-limit answers. */
  loginRateLimitPerMinute: number;
  /** Signed integration calls (/open/v1) per API key per minute, counted across processes (OPEN_RATE_LIMIT). */
  openRateLimitPerMinute: number;
  /** Folder of the built console; served at / when present. */
  webDist: string;
  /** Injectable clock (Unix ms) so tests can expire sessions and throttles without sleeping. */
  now: () => number;
  /** argon2id cost for new password hashes. */
  passwordCost: PasswordCost;
  /** The read cache of sessions and stores (cache/shared.ts); READ_CACHE=off reads the database every time. */
  readCache: boolean;
  /** Pino logger options; false keeps tests quiet. */
  logger: boolean | { level: string };
  /** The station broker (DELIVERY.md §4.3); null: none (MQTT=off, and tests that do not need one). */
  mqtt: MqttConfig | null;
  /** Period of the delivery sweeper, ms; 0: no timer (tests call `gateway.tick()` after moving `now`). */
  deliveryTickMs: number;
  /** Render worker threads (DELIVERY.md §5.3, `RENDER_WORKERS`); 0: labels render in the main thread. */
  renderWorkers: number;
  /** Callbacks (docs/INTEGRATION.md): what a callback URL may reach, the wait per delivery, the sender's period. */
  callbacks: CallbackConfig;
  /** GET /metrics: the bearer token a scraper must send (METRICS_TOKEN); empty: loopback callers only. */
  metricsToken: string;
  /**
   * TRUST_PROXY: addresses or CIDRs of the proxies in front (comma-separated); empty: trust none.
   * Only a peer listed here may set the client's address and scheme (X-Forwarded-For / -Proto),
   * which every limit, the op log and the "over TLS" decision read (docs/DEPLOY.md).
   */
  trustProxy: string[];
  /** The in-process bridges to OpenEPaperLink access points (delivery/bridges/, docs/OEPL.md). */
  bridges: BridgeConfig;
}

/** How the server runs its OEPL bridges. */
export interface BridgeConfig {
  /** Period of the manager's look at the database, ms (5000); 0: only at start and on changes (tests). */
  reconcileMs: number;
  /**
   * Starts one bridge; absent: `@esl/bridge` on real time. Tests pass one on their virtual clock.
   * The secret it is given must stay in memory: never logged, written or passed on.
   */
  start?: (o: {
    url: string;
    station: { tenantId: number; sn: string; secret: string };
    aps: string[];
    log: (line: string) => void;
  }) => Promise<{ stop(): Promise<void> }>;
}

export interface CallbackConfig {
  /** CALLBACK_ALLOW_LOOPBACK=on lets callbacks reach 127.0.0.0/8 and ::1 (tests); off by default. */
  allowLoopback: boolean;
  /** CALLBACK_ALLOW_PRIVATE=on lets callbacks reach private networks (10/8, 172.16/12, 192.168/16 …); off by default. */
  allowPrivate: boolean;
  /** CALLBACK_TIMEOUT_MS: longest wait for a receiver's answer (default 10 s). */
  timeoutMs: number;
  /** Period of the sender, ms; 0: no timer (tests call `tick()`). */
  tickMs: number;
}

export type MqttConfig =
  /** The embedded aedes broker, listening here (port 0: any free port), and with TLS when `tls` is set. */
  (
    | { mode: 'embedded'; host: string; port: number; tls?: MqttTlsConfig }
    /** The server is a client of an external broker (Mosquitto, EMQX). */
    | {
        mode: 'external';
        url: string;
        username?: string;
        password?: string;
        /** Mosquitto dynamic-security admin: station accounts are written there. */
        adminUsername?: string;
        adminPassword?: string;
        /** Client ids `esl-server-{instanceId}` / `esl-admin-{instanceId}`. */
        instanceId: string;
      }
  ) & {
    /**
     * MQTT_PUBLIC_URL: where stations dial the broker (`mqtt://host:port`, `mqtts://host:port`, or
     * both), shown with each new station secret; absent: the listener's own address
     * (modules/stations/login.ts).
     */
    publicUrls?: string[];
  };

/** A second listener of the embedded broker that speaks MQTT over TLS (MQTT_TLS_CERT, MQTT_TLS_KEY, MQTT_TLS_PORT). */
export interface MqttTlsConfig {
  /** PEM files: the certificate (chain) and its private key, read when the broker starts. */
  certFile: string;
  keyFile: string;
  /** 8884 by default; 0: any free port. */
  port: number;
}

/**
 * MQTT=off, MQTT_URL (external broker) or the embedded one on MQTT_HOST (default HOST) : MQTT_PORT
 * (1884), plus a TLS listener on MQTT_TLS_PORT (8884) when MQTT_TLS_CERT and MQTT_TLS_KEY are set.
 */
export function mqttFromEnv(env: NodeJS.ProcessEnv): MqttConfig | null {
  if (!switchFromEnv(env, 'MQTT', true)) return null;
  const publicUrls = mqttPublicUrlsFromEnv(env);
  const broker = brokerFromEnv(env);
  return publicUrls.length ? { ...broker, publicUrls } : broker;
}

/**
 * MQTT_PUBLIC_URL: comma-separated `mqtt://HOST:PORT` and `mqtts://HOST:PORT` (at most one of
 * each), nothing after the port; anything else stops the start naming the variable.
 */
export function mqttPublicUrlsFromEnv(env: NodeJS.ProcessEnv): string[] {
  const entries = (env.MQTT_PUBLIC_URL ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const seen = new Set<string>();
  for (const entry of entries) {
    let url: URL | null = null;
    try {
      url = new URL(entry);
    } catch {
      url = null;
    }
    const plain =
      url &&
      (url.protocol === 'mqtt:' || url.protocol === 'mqtts:') &&
      url.hostname &&
      !url.username &&
      !url.password &&
      (url.pathname === '' || url.pathname === '/') &&
      !url.search &&
      !url.hash;
    if (!url || !plain || seen.has(url.protocol))
      throw new Error(
        `MQTT_PUBLIC_URL must be mqtt://HOST:PORT and/or mqtts://HOST:PORT separated by a comma, one of each at most (got "${entry}")`,
      );
    seen.add(url.protocol);
  }
  return entries;
}

function brokerFromEnv(env: NodeJS.ProcessEnv): MqttConfig {
  const wantsTls = Boolean(env.MQTT_TLS_CERT || env.MQTT_TLS_KEY || env.MQTT_TLS_PORT);
  if (env.MQTT_URL) {
    if (wantsTls)
      throw new Error(
        'MQTT_TLS_CERT, MQTT_TLS_KEY and MQTT_TLS_PORT are for the embedded broker; with MQTT_URL the external broker does TLS (give it an mqtts:// URL)',
      );
    return {
      mode: 'external',
      url: env.MQTT_URL,
      username: env.MQTT_USERNAME || undefined,
      password: env.MQTT_PASSWORD || undefined,
      adminUsername: env.MQTT_ADMIN_USERNAME || undefined,
      adminPassword: env.MQTT_ADMIN_PASSWORD || undefined,
      instanceId: env.INSTANCE_ID || `${hostname()}-${process.pid}`,
    };
  }
  const port = portFrom(env, 'MQTT_PORT', 1884);
  const host = env.MQTT_HOST || env.HOST || '127.0.0.1';
  if (!wantsTls) return { mode: 'embedded', host, port };
  if (!env.MQTT_TLS_CERT || !env.MQTT_TLS_KEY)
    throw new Error('the embedded broker listens with TLS only with both MQTT_TLS_CERT and MQTT_TLS_KEY (PEM files)');
  return {
    mode: 'embedded',
    host,
    port,
    tls: { certFile: env.MQTT_TLS_CERT, keyFile: env.MQTT_TLS_KEY, port: portFrom(env, 'MQTT_TLS_PORT', 8884) },
  };
}

function portFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  const port = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`${name} must be a port number (got "${raw}")`);
  return port;
}

/**
 * RENDER_WORKERS: render worker threads; default one per core but one (the main thread does the
 * database and network work), at least 1. `0` renders in the main thread.
 */
export function renderWorkersFromEnv(env: NodeJS.ProcessEnv, cores = availableParallelism()): number {
  const raw = env.RENDER_WORKERS?.trim();
  if (!raw) return Math.max(1, cores - 1);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 256)
    throw new Error(`RENDER_WORKERS must be a whole number from 0 to 256 (got "${env.RENDER_WORKERS}")`);
  return n;
}

/**
 * TRUST_PROXY: comma-separated IPv4/IPv6 addresses or CIDRs (10.0.0.0/8, fd00::/8); empty or
 * unset: none. Anything else stops the start naming the variable and the entry.
 */
export function trustProxyFromEnv(env: NodeJS.ProcessEnv): string[] {
  const entries = (env.TRUST_PROXY ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const badBits = bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > max);
    if (family === 0 || badBits || extra !== undefined)
      throw new Error(`TRUST_PROXY must list IP addresses or CIDRs separated by commas (got "${entry}")`);
  }
  return entries;
}

/** A whole number of milliseconds from `name` (unset or empty: `fallback`); anything else stops the start. */
export function millisFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, max = 3_600_000): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > max)
    throw new Error(`${name} must be a whole number of milliseconds from 0 to ${max} (got "${env[name]}")`);
  return n;
}

/**
 * Stopping on SIGTERM/SIGINT (main.ts): /readyz answers 503 at once; the server keeps serving for
 * SHUTDOWN_DRAIN_MS (default 0) so a load balancer sees it and stops sending, then closes; past
 * SHUTDOWN_TIMEOUT_MS (default 10 s) from the signal the process exits whatever is still open.
 */
export function shutdownFromEnv(env: NodeJS.ProcessEnv): { drainMs: number; timeoutMs: number } {
  return {
    drainMs: millisFromEnv(env, 'SHUTDOWN_DRAIN_MS', 0),
    timeoutMs: millisFromEnv(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
  };
}

/** Where to listen: PORT (default 8080, 0 = any free port) and HOST (default 127.0.0.1); an empty or bad PORT stops the start. */
export function listenFromEnv(env: NodeJS.ProcessEnv): { port: number; host: string } {
  if (env.PORT !== undefined && env.PORT.trim() === '') throw new Error('PORT must be a port number (got "")');
  return { port: portFrom(env, 'PORT', 8080), host: env.HOST || '127.0.0.1' };
}

// The checkout's root, from this file (apps/server/src/infra) or the built server (apps/server/dist).
const repoRoot = fileURLToPath(import.meta.url).replace(/apps[\\/]server[\\/].*$/, '');

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = env.DATA_DIR ?? join(process.cwd(), 'data');
  return {
    databaseUrl: env.DATABASE_URL || `sqlite:${join(dataDir, 'esl.db')}`,
    publicUrl: (env.PUBLIC_URL ?? '').replace(/\/+$/, ''),
    sessionTtlHours: positive(env, 'SESSION_TTL_HOURS', 12),
    loginRateLimitPerMinute: positive(env, 'LOGIN_RATE_LIMIT', 30),
    openRateLimitPerMinute: positive(env, 'OPEN_RATE_LIMIT', 600),
    webDist: env.WEB_DIST ?? join(repoRoot, 'apps/web/dist'),
    now: Date.now,
    passwordCost: PRODUCTION_COST,
    readCache: switchFromEnv(env, 'READ_CACHE', true),
    logger: { level: logLevelFromEnv(env) },
    mqtt: mqttFromEnv(env),
    deliveryTickMs: 1000,
    renderWorkers: renderWorkersFromEnv(env),
    callbacks: {
      allowLoopback: switchFromEnv(env, 'CALLBACK_ALLOW_LOOPBACK', false),
      allowPrivate: switchFromEnv(env, 'CALLBACK_ALLOW_PRIVATE', false),
      timeoutMs: positive(env, 'CALLBACK_TIMEOUT_MS', 10_000),
      tickMs: 1000,
    },
    metricsToken: env.METRICS_TOKEN ?? '',
    trustProxy: trustProxyFromEnv(env),
    bridges: { reconcileMs: 5000 },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    databaseUrl: 'sqlite::memory:',
    publicUrl: '',
    sessionTtlHours: 12,
    loginRateLimitPerMinute: 10_000,
    openRateLimitPerMinute: 10_000,
    webDist: join(repoRoot, 'apps/web/dist'),
    now: Date.now,
    // Same algorithm, far cheaper: the suite logs in hundreds of times.
    passwordCost: { memoryCost: 1024, timeCost: 1 },
    readCache: true,
    logger: false,
    mqtt: null,
    deliveryTickMs: 0,
    // Tests render in their own thread unless they are about the pool.
    renderWorkers: 0,
    callbacks: { allowLoopback: false, allowPrivate: false, timeoutMs: 2000, tickMs: 0 },
    metricsToken: '',
    trustProxy: [],
    bridges: { reconcileMs: 0 },
    ...overrides,
  };
}

/** A number above 0 from `name` (unset or empty: `fallback`); anything else stops the start naming it. */
function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a number above 0 (got "${env[name]}")`);
  return n;
}

/** WORKERS: server processes behind one port (main.ts), 1 to 64; unset or empty: 1. */
export function workersFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.WORKERS?.trim();
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 64)
    throw new Error(`WORKERS must be a whole number from 1 to 64 (got "${env.WORKERS}")`);
  return n;
}

const ON = /^(on|1|true|yes)$/i;
const OFF = /^(off|0|false|no)$/i;

/** on/off (1/0, true/false, yes/no) from `name`; unset or empty: `fallback`; anything else stops the start. */
export function switchFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (ON.test(raw)) return true;
  if (OFF.test(raw)) return false;
  throw new Error(`${name} must be on or off (got "${env[name]}")`);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevelFromEnv(env: NodeJS.ProcessEnv): string {
  const raw = env.LOG_LEVEL?.trim();
  if (raw === undefined || raw === '') return 'warn';
  if (!LOG_LEVELS.includes(raw)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${raw}")`);
  return raw;
}
