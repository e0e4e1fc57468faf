import { defineConfig } from 'vitest/config';

// One run covers every workspace; browser tests live in e2e/ and start their own server.
// The Node-only projects reuse one module graph per worker (isolate: false): every server test
// file imports fastify, kysely and the app (~2 s each), and none of them mocks a module or stubs
// a global (docs/WEB.md, "Browser tests"). The web project keeps isolation (fake timers, stubbed globals).
const shared = { isolate: false } as const;
// Server and simulator tests run real brokers, databases, worker threads and child processes on a
// 2-core machine shared with the browser lane: one that fails is run once more, and `npm test`
// lists every test that passed only on its retry, with the first attempt's error.
const again = { retry: 1 } as const;

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'repo', root: 'scripts', include: ['*.test.ts'], ...shared } },
      { test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'], ...shared } },
      {
        test: {
          name: 'labels',
          root: 'packages/labels',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // The first label of a script reads its font (12 MB for Korean) and compiles HarfBuzz:
          // seconds on a loaded machine, over Vitest's 5 s default.
          testTimeout: 30_000,
          ...shared,
        },
      },
      { test: { name: 'station', root: 'packages/station', include: ['src/**/*.test.ts'], ...shared } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          ...shared,
          ...again,
        },
      },
      {
        test: {
          name: 'simulator',
          root: 'apps/simulator',
          include: ['src/**/*.test.ts'],
          testTimeout: 30_000,
          ...shared,
          ...again,
        },
      },
      {
        test: {
          name: 'bridge',
          root: 'apps/bridge',
          include: ['src/**/*.test.ts'],
          testTimeout: 30_000,
          ...shared,
          ...again,
        },
      },
      { test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.e2e.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // Browser tests drive a real Chromium on a 2-core machine; a test that fails once is run
          // again, and the report still names it as retried (docs/WEB.md, "Browser tests").
          retry: 1,
          globalSetup: ['./global-setup.ts'],
        },
      },
    ],
  },
});
