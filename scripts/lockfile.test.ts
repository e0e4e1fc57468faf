import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm ci` (what CI runs) refuses a lock file out of step with the manifests, for example one
// that lacks a platform build the registry does not have. `npm install` on this machine still
// succeeds, so only a fresh clone would find out: check it here, on a copy, without installing.
describe('package-lock.json', () => {
  const root = new URL('..', import.meta.url).pathname;
  const work = mkdtempSync(join(tmpdir(), 'esl-lock-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('is accepted by npm ci', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] };
    for (const file of ['package.json', 'package-lock.json', ...manifest.workspaces.map((w) => `${w}/package.json`)]) {
      mkdirSync(dirname(join(work, file)), { recursive: true });
      cpSync(join(root, file), join(work, file));
    }
    let output = '';
    try {
      const run = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: work,
        encoding: 'utf8',
      });
      output = `${run.stdout}\n${run.stderr}`;
    } catch (err) {
      output = String(err);
    }
    const lines = output.split('\n');
    expect(lines.filter((l) => l.startsWith('npm error'))).toEqual([]);
    // Every package must support the Node the machines have (20) as well as 24: a package
    // declaring a newer engine works until the day it uses what only that engine has.
    expect(lines.filter((l) => l.includes('EBADENGINE') && l.includes('package:'))).toEqual([]);
  }, 120_000);
});
