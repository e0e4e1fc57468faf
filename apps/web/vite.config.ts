import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = 'http://127.0.0.1:8080';

// Builds the console into apps/web/dist, which the server serves at /. The manifest lets
// bench/bundle-size.mjs tell which chunks a route needs.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': server,
      '/uploads': server,
      '/sys': { target: server, ws: true },
    },
  },
});
