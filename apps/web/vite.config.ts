import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = 'http://127.0.0.1:8080';

// Builds the console into apps/web/dist, which the server serves at / (and the handheld page,
// pda.html, which it serves at /pda/). The manifest lets
// bench/bundle-size.mjs tell which chunks a route needs.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
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
            // The role table is plain data the entry needs (the route guard); in the contract
            // chunk it would make the entry import zod, which then evaluates before src/csp.ts
            // can turn zod's eval probe off (e2e/shell/csp.e2e.ts).
            { name: 'roles', test: /[\\/]packages[\\/]contract[\\/]src[\\/]roleTable/, priority: 2 },
            // zod and the contract's schemas in a chunk of their own, so a screen that only
            // needs the contract's constants (the login page) does not load them.
            {
              name: 'contract',
              priority: 1,
              test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]packages[\\/]contract[\\/]src[\\/](api[\\/]|calls|common|roles|models)/,
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
