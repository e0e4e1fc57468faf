#!/usr/bin/env node
// `npm test`: lint, type-check, the import rules (scripts/imports.ts), then every Vitest project
// (unit, server on SQLite and PostgreSQL when reachable, browser tests when Chromium is installed).
// Ends with one "N passed, N failed" line.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
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
const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });
const extra = process.argv.slice(2);

/*
 * Two lanes at once: the browser tests (one Chromium and one server, file after file) beside
 * every other project (file after file). On 2 cores this takes about as long as one after the
 * other (each lane keeps more than a core busy); with more cores, less (docs/WEB.md, "Browser
 * tests"). TEST_LANES=1 runs them one after the other in this terminal.
 */
const lanes = [
  { id: 'main', name: 'unit and server', projects: ['--project', '!e2e'] },
  { id: 'e2e', name: 'browser', projects: ['--project', 'e2e'] },
];
const vitestArgs = (lane) => [
  'vitest',
  'run',
  '--passWithNoTests',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${reportOf(lane)}`,
  ...lane.projects,
  ...extra,
];
const reportOf = (lane) => join(results, `vitest-${lane.id}.json`);
const logOf = (lane) => join(results, `vitest-${lane.id}.log`);

let statuses;
if (process.env.TEST_LANES === '1') {
  statuses = lanes.map((lane) => run('npx', vitestArgs(lane)));
} else {
  // The first lane prints as it goes; the second writes to its log, printed when it ends.
  statuses = await Promise.all(
    lanes.map(
      (lane, i) =>
        new Promise((resolve) => {
          const child = spawn('npx', vitestArgs(lane), {
            cwd: root,
            env: process.env,
            stdio: i === 0 ? 'inherit' : ['ignore', 'pipe', 'pipe'],
          });
          if (i === 0) {
            child.on('close', (code) => resolve(code ?? 1));
            return;
          }
          const log = createWriteStream(logOf(lane));
          child.stdout.pipe(log, { end: false });
          child.stderr.pipe(log, { end: false });
          // Resolved once the log is on disk, so it can be printed whole.
          child.on('close', (code) => log.end(() => resolve(code ?? 1)));
        }),
    ),
  );
  for (const lane of lanes.slice(1)) {
    console.log(`\n== tests: ${lane.name} (${logOf(lane)})`);
    process.stdout.write(readFileSync(logOf(lane), 'utf8'));
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
// What failed, again at the very end: CI keeps only the tail of a long run, and the first lane's
// own report scrolled past long before it.
const failures = [];
const retried = [];
for (const lane of lanes) {
  try {
    const r = JSON.parse(readFileSync(reportOf(lane), 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + r.numTodoTests;
    if (!r.success && r.numFailedTests === 0) failed += 1; // a suite that failed to load counts
    for (const file of r.testResults ?? []) {
      const where = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
      let failedHere = 0;
      for (const a of file.assertionResults ?? []) {
        const row = { where, title: a.fullName, message: a.failureMessages?.[0] };
        if (a.status === 'failed') {
          failures.push(row);
          failedHere++;
        }
        // A test that passed on its retry keeps the first attempt's error (Vitest's JSON report).
        else if (a.status === 'passed' && a.failureMessages?.length) retried.push(row);
      }
      if (file.status === 'failed' && failedHere === 0)
        failures.push({ where, title: '(file)', message: file.message });
    }
  } catch {
    failed += 1;
    failures.push({ where: reportOf(lane), title: '(no report)', message: `lane ${lane.name} wrote no report` });
  }
}
const list = (title, rows) => {
  if (rows.length === 0) return;
  console.log(`\n== ${title} (${rows.length})`);
  for (const f of rows) {
    console.log(`\n- ${f.where} > ${f.title}`);
    const lines = String(f.message ?? '')
      .split('\n')
      .slice(0, 12);
    for (const line of lines) console.log(`    ${line}`);
  }
};
list('passed only on their retry', retried);
list('failed', failures);

const status = statuses.every((s) => s === 0) ? 0 : 1;
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(status === 0 && failed === 0 ? 0 : 1);
