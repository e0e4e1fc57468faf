import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../infra/version';

// One product version (issue 26 item 5): the root package.json, the newest CHANGELOG.md entry and
// the server's own (esl_build_info, the start line) say the same.
const root = new URL('../../../../', import.meta.url);

describe('the product version', () => {
  it('is the root package.json version and the newest CHANGELOG.md entry', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version?: string };
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.version).toBe(VERSION);
    const changelog = readFileSync(new URL('CHANGELOG.md', root), 'utf8');
    expect(/^## (\S+)/m.exec(changelog)?.[1]).toBe(VERSION);
  });
});
