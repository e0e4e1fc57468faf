import type { Envelope } from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app';
import { testConfig } from '../infra/config';
import { openDatabase } from '../infra/db/database';
import { migrateToLatest } from '../infra/db/migrate';
import { checkAnswersOf } from './answers';
import type { TestDatabase } from './databases';

/** A clock the test moves by hand; sessions and login throttles read it through config.now. */
export class TestClock {
  constructor(public time = Date.UTC(2026, 0, 15, 9, 0, 0)) {}
  now = () => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  /** POST /api<path> and answer the parsed envelope (and the HTTP status). */
  call<T = unknown>(path: string, body?: unknown, opts?: CallOptions): Promise<Envelope<T> & { status: number }>;
}

export interface CallOptions {
  token?: string;
  lang?: 'en' | 'zh-CN';
  headers?: Record<string, string>;
}

/**
 * Starts the app on a fresh, migrated database for the surrounding describe block and closes
 * (and drops) it afterwards. Use the getter inside tests: `const t = useApp(db); t().call(...)`.
 * Every answer `app.inject` gets from a documented call is checked against the OpenAPI document
 * (test/answers.ts): one that breaks it fails the test.
 */
export function useApp(target: TestDatabase, overrides: Parameters<typeof testConfig>[0] = {}): () => TestApp {
  let current: TestApp | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const created = await target.create();
    drop = created.drop;
    const clock = new TestClock();
    const config = testConfig({ databaseUrl: created.url, now: clock.now, ...overrides });
    const database = openDatabase(config.databaseUrl);
    await migrateToLatest(database);
    const app = checkAnswersOf(await buildApp(config, database));
    await app.ready();
    current = { app, clock, call: (path, body, opts) => callApi(app, path, body, opts) };
  });
  afterAll(async () => {
    await current?.app.close();
    await drop?.();
  });
  return () => {
    if (!current) throw new Error('the test app is not started yet');
    return current;
  };
}

export async function callApi<T>(
  app: FastifyInstance,
  path: string,
  body: unknown = {},
  opts: CallOptions = {},
): Promise<Envelope<T> & { status: number }> {
  const headers: Record<string, string> = { 'accept-language': opts.lang ?? 'en', ...opts.headers };
  if (opts.token) headers.token = opts.token;
  const res = await checkAnswersOf(app).inject({
    method: 'POST',
    url: `/api${path}`,
    headers,
    payload: body as object,
  });
  return { ...(res.json() as Envelope<T>), status: res.statusCode };
}
