import { execFileSync } from 'node:child_process';
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
      execFileSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: work,
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (err) {
      output = String((err as { stderr?: string }).stderr ?? err);
    }
    expect(output.split('\n').filter((l) => l.startsWith('npm error'))).toEqual([]);
  }, 120_000);
});
