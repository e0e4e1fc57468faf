import { readFileSync } from 'node:fs';
import { PERMISSIONS, ROLE_PERMISSIONS, Role } from '@esl/contract';
import { describe, expect, it } from 'vitest';

const roles = Role.options;
const doc = readFileSync(new URL('../../../docs/ROLES.md', import.meta.url), 'utf8');

describe('docs/ROLES.md', () => {
  it('shows exactly the role → permission table of the contract', () => {
    const header = doc.split('\n').find((l) => l.startsWith('| permission |'));
    expect(
      header
        ?.split('|')
        .map((c) => c.trim())
        .slice(2, 2 + roles.length),
    ).toEqual(roles);
    const shown = new Map<string, string[]>();
    for (const line of doc.split('\n')) {
      const cells = line.split('|').map((c) => c.trim());
      const permission = /^`([a-z.]+)`$/.exec(cells[1] ?? '')?.[1];
      if (!permission || cells.length < roles.length + 3) continue;
      shown.set(
        permission,
        roles.filter((_, i) => cells[2 + i] === '✓'),
      );
    }
    expect([...shown.keys()]).toEqual([...PERMISSIONS]);
    for (const p of PERMISSIONS) {
      expect(shown.get(p), p).toEqual(roles.filter((r) => ROLE_PERMISSIONS[r].includes(p)));
    }
  });
});
