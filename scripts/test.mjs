#!/usr/bin/env node
// `npm test`: lint, type-check, the import rules (scripts/imports.ts), then every Vitest project
// (unit, server on SQLite and PostgreSQL when reachable, browser tests when Chromium is installed).
// Ends with one "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env }).status ?? 1;

const steps = [
  ['lint', 'npx', ['biome', 'check', '.']],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['imports', 'node', ['--import', 'tsx', 'scripts/imports.ts']],
];
for (const [name, cmd, args] of steps) {
  console.log(`\n== ${name}`);
  if (run(cmd, args) !== 0) {
    console.log(`\n${name} failed`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

console.log('\n== tests');
mkdirSync(join(root, 'test-results'), { recursive: true });
const report = join(root, 'test-results', 'vitest.json');
const extra = process.argv.slice(2);
const status = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...extra,
]);
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed = r.numPassedTests;
  failed = r.numFailedTests;
  skipped = r.numPendingTests + r.numTodoTests;
  if (!r.success && failed === 0) failed = 1; // a suite that failed to load counts
} catch {
  failed = Math.max(failed, 1);
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(status === 0 && failed === 0 ? 0 : 1);
