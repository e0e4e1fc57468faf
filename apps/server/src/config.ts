import { join } from 'node:path';
import { type PasswordCost, PRODUCTION_COST } from './auth/passwords';

/** Everything the server needs to know from its surroundings; tests build one directly. */
export interface Config {
  /** `sqlite:<file>` / `sqlite::memory:` or a `postgres://` URL. */
  databaseUrl: string;
  /** Public address used in avatar URLs and the PDA configuration; empty = the request's own. */
  publicUrl: string;
  sessionTtlHours: number;
  /** Login attempts per IP per minute before @fastify/rate-limit answers. */
  loginRateLimitPerMinute: number;
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
}

const repoRoot = new URL('../../../', import.meta.url).pathname;

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = env.DATA_DIR ?? join(process.cwd(), 'data');
  return {
    databaseUrl: env.DATABASE_URL || `sqlite:${join(dataDir, 'esl.db')}`,
    publicUrl: (env.PUBLIC_URL ?? '').replace(/\/+$/, ''),
    sessionTtlHours: positive(env.SESSION_TTL_HOURS, 12),
    loginRateLimitPerMinute: positive(env.LOGIN_RATE_LIMIT, 30),
    webDist: env.WEB_DIST ?? join(repoRoot, 'apps/web/dist'),
    now: Date.now,
    passwordCost: PRODUCTION_COST,
    readCache: !/^(off|0|false|no)$/i.test(env.READ_CACHE ?? ''),
    logger: { level: env.LOG_LEVEL ?? 'warn' },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    databaseUrl: 'sqlite::memory:',
    publicUrl: '',
    sessionTtlHours: 12,
    loginRateLimitPerMinute: 10_000,
    webDist: join(repoRoot, 'apps/web/dist'),
    now: Date.now,
    // Same algorithm, far cheaper: the suite logs in hundreds of times.
    passwordCost: { memoryCost: 1024, timeCost: 1 },
    readCache: true,
    logger: false,
    ...overrides,
  };
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
