import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// The editor passes a browser canvas where the renderer asks for a Canvas2D: check the types fit.
test('a browser canvas context is a Canvas2D (compiled with the DOM library)', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const project = fileURLToPath(new URL('./dom/tsconfig.json', import.meta.url));
  const run = spawnSync(process.execPath, [tsc, '-p', project, '--noEmit'], { encoding: 'utf8' });
  expect(run.stdout + run.stderr).toBe('');
  expect(run.status).toBe(0);
}, 120_000);
