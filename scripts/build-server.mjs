#!/usr/bin/env node
// `npm run build:server`: the server as plain JavaScript in apps/server/dist (issue 26 item 8), so
// production starts with `node apps/server/dist/main.js` (`npm start`) and needs no TypeScript
// loader. The project's own code and its workspace packages (@esl/*, TypeScript sources) are
// bundled; every other package stays an import from node_modules (native modules included).
// Entries: main.js (the server), cli.js (`npm run esl`), render-worker.js (the render threads,
// started by infra/render/pool.ts through worker-boot.mjs, here without tsx).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const src = join(root, 'apps/server/src');
const out = join(root, 'apps/server/dist');

rmSync(out, { recursive: true, force: true });
const started = Date.now();
await build({
  entryPoints: {
    main: join(src, 'main.ts'),
    cli: join(src, 'cli.ts'),
    'render-worker': join(src, 'infra/render/worker.ts'),
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: true,
  // Shared chunks beside the entries: import.meta.url-relative paths (worker-boot.mjs) hold for all.
  chunkNames: 'chunk-[hash]',
  logLevel: 'warning',
  plugins: [
    {
      // Bare imports stay imports, except the workspace's own packages (TypeScript, bundled).
      name: 'externals',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@esl/') || args.path.startsWith('node:')
            ? undefined
            : { path: args.path, external: true },
        );
      },
    },
  ],
});
// The render threads' boot module: in the source tree it registers tsx first (worker-boot.mjs).
writeFileSync(
  join(out, 'worker-boot.mjs'),
  "import { workerData } from 'node:worker_threads';\nawait import(workerData.entry);\n",
);
console.log(`built the server into ${out} in ${Date.now() - started} ms`);
