import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, test } from 'vitest';

// The console's editor imports @esl/labels: bundled for a browser it must not need any Node module.
test('src/index.ts bundles for the browser without Node built-ins', async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    metafile: true,
  });
  expect(result.errors).toEqual([]);
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.some((path) => path.includes('@napi-rs') || path.startsWith('node:'))).toBe(false);
  expect(inputs.some((path) => path.includes('qrcode/lib/browser.js'))).toBe(true);
  // Code 128 is our own encoder: bwip-js (~220 KB gzip) is only a test's reference.
  expect(inputs.some((path) => path.includes('bwip-js'))).toBe(false);
}, 60_000);

test('the node entry is the one that needs Node', async () => {
  const attempt = build({
    entryPoints: [fileURLToPath(new URL('../src/node.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  await expect(attempt).rejects.toThrow(/node:module|node:zlib|Could not resolve/);
}, 60_000);

test('the model entry holds no drawing code: only its own files and zod', async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/model/index.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    metafile: true,
  });
  const inputs = Object.keys(result.metafile.inputs);
  const own = (path: string) => /(^|\/)node_modules\/zod\//.test(path) || /(^|\/)src\/model\/[a-z]+\.ts$/.test(path);
  expect(inputs.filter((path) => !own(path))).toEqual([]);
  expect(inputs.some((path) => path.endsWith('src/model/traits.ts'))).toBe(true);
}, 60_000);
