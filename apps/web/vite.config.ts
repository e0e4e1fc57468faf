import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const server = 'http://127.0.0.1:8080';

// Builds the console into apps/web/dist, which the server serves at / (and the handheld page,
// pda.html, which it serves at /pda/). The manifest lets
// bench/bundle-size.mjs tell which chunks a route needs.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // The console and the handheld page (docs/PDA.md), each with its own entry chunk.
      input: {
        main: `${import.meta.dirname}/index.html`,
        pda: `${import.meta.dirname}/pda.html`,
      },
      output: {
        codeSplitting: {
          groups: [
            // The role table is plain data the entry needs (the route guard): kept out of the
            // contract chunk so the route guard does not wait for zod. (Zod's eval probe is off
            // whatever the chunks: public/zod-jitless.js runs before any module.)
            { name: 'roles', test: /[\\/]packages[\\/]contract[\\/]src[\\/]roleTable/, priority: 2 },
            // The contract's plain constants and error codes (no zod) that the login page and the
            // shell use: in a chunk of their own, else they land in the contract chunk and pull
            // every schema into /login (bench/bundle-size.mjs).
            {
              name: 'constants',
              test: /[\\/]packages[\\/]contract[\\/]src[\\/](constants|errors)\.ts$/,
              priority: 2,
            },
            // zod and the contract's schemas in a chunk of their own, so a screen that only
            // needs the contract's constants (the login page) does not load them.
            {
              name: 'contract',
              priority: 1,
              test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]packages[\\/]contract[\\/]src[\\/](api[\\/]|calls|common|roles|models)/,
            },
            // antd's modules the console's entry loads before any screen, in one chunk: with the
            // dialogs loaded on first open (docs/WEB.md), the bundler cut them into a piece per
            // set of dialogs sharing them, each gzipped alone (/login 296.2 → 305.5 KB gzip;
            // 298.4 with this group). React, React DOM and the scheduler in a chunk of their own
            // first, else the group takes them as its modules' dependencies and the handheld
            // page, which has no antd, loads it (83 → 187 KB).
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 1 },
            {
              name: 'ui',
              test: /[\\/]node_modules[\\/](antd|@rc-component|@ant-design)[\\/]/,
              tags: ['$initial'],
              priority: 0,
            },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': server,
      '/uploads': server,
      '/fonts': server,
      '/sys': { target: server, ws: true },
    },
  },
});

/** Worth compressing: text and the WebAssembly decoder (woff, woff2 and images are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|wasm|ttf|txt)$/;

/**
 * Writes name.br (brotli, best) and name.gz (gzip -9) beside every compressible file of the build,
 * when it saves at least a tenth; the server sends the one the browser accepts (issue 26 item 3,
 * apps/server/src/infra/web/compression.ts), compressing nothing itself.
 */
function precompress(): Plugin {
  return {
    name: 'esl-precompress',
    apply: 'build',
    writeBundle(options) {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const file of walk(options.dir ?? 'dist').filter((f) => COMPRESSIBLE.test(f))) {
        const bytes = readFileSync(file);
        const br = brotliCompressSync(bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        });
        const gz = gzipSync(bytes, { level: 9 });
        if (br.length < bytes.length * 0.9) writeFileSync(`${file}.br`, br);
        if (gz.length < bytes.length * 0.9) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}
