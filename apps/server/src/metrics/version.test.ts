import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../infra/version';

// One product version (issue 26 item 5): the root package.json, the newest CHANGELOG.md entry and
// the server's own (esl_build_info, the start line) say the same. Bumping it also touches the
// integrators' client (packages/client/package.json, package-lock.json) and the OpenAPI document:
// `npm run --silent esl -- openapi > docs/openapi.json`, then `node --import tsx
// scripts/generate-client.ts` (0.4.1's stop went red for forgetting those).
const root = new URL('../../../../', import.meta.url);

describe('the product version', () => {
  it('is the root package.json version and the newest CHANGELOG.md entry', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version?: string };
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.version).toBe(VERSION);
    const changelog = readFileSync(new URL('CHANGELOG.md', root), 'utf8');
    expect(/^## (\S+)/m.exec(changelog)?.[1]).toBe(VERSION);
  });

  it("is the integrators' client version and the committed OpenAPI document's", () => {
    const client = JSON.parse(readFileSync(new URL('packages/client/package.json', root), 'utf8')) as {
      version?: string;
    };
    const doc = JSON.parse(readFileSync(new URL('docs/openapi.json', root), 'utf8')) as { info?: { version?: string } };
    expect(client.version, 'packages/client/package.json (and package-lock.json)').toBe(VERSION);
    expect(doc.info?.version, 'docs/openapi.json: npm run --silent esl -- openapi > docs/openapi.json').toBe(VERSION);
  });
});
