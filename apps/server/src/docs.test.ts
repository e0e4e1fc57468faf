import { readdirSync, readFileSync } from 'node:fs';
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

/**
 * The folders the "Layout" block of docs/SERVER.md names: a line starting at the margin names a
 * path under src/ (a folder when it ends in `/`); an indented line names, in its first column,
 * folders inside the last such folder (`products/import/` too). Description columns are ignored.
 */
function layoutFolders(text: string): string[] {
  const block = text.slice(text.indexOf('## Layout')).split('```')[1] ?? '';
  const folders: string[] = [];
  let parent = '';
  for (const line of block.split('\n')) {
    const indent = line.length - line.trimStart().length;
    const column = line.trim().split(/\s{2,}/)[0];
    if (column === '' || indent >= 8) continue;
    if (indent === 0) {
      parent = column.slice(0, column.lastIndexOf('/') + 1);
      if (column.endsWith('/')) folders.push(column);
    } else {
      for (const name of column.split(' ')) if (name.endsWith('/')) folders.push(parent + name);
    }
  }
  return folders;
}

function srcFolders(dir: URL, prefix = 'src/'): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [`${prefix}${e.name}/`, ...srcFolders(new URL(`${e.name}/`, dir), `${prefix}${e.name}/`)]);
}

describe('docs/SERVER.md', () => {
  const server = readFileSync(new URL('../../../docs/SERVER.md', import.meta.url), 'utf8');

  it('reads the layout block: top-level paths, indented folders, continuation lines skipped', () => {
    const sample = [
      '## Layout',
      '```',
      'src/app.ts              builds it',
      'src/api/                the generic layer',
      '  register.ts           one route per call, see src/other/',
      'src/modules/            areas',
      '  users/ stores/        two of them',
      '                        continued/ text',
      '  products/import/      deeper',
      '```',
    ].join('\n');
    expect(layoutFolders(sample)).toEqual([
      'src/api/',
      'src/modules/',
      'src/modules/users/',
      'src/modules/stores/',
      'src/modules/products/import/',
    ]);
  });

  it('lists every folder of apps/server/src in its layout, and no folder that is gone', () => {
    const listed = layoutFolders(server);
    const actual = srcFolders(new URL('./', import.meta.url));
    expect(
      actual.filter((f) => !listed.includes(f)),
      'folders missing from the Layout block of docs/SERVER.md',
    ).toEqual([]);
    expect(listed.filter((f) => !actual.includes(f))).toEqual([]);
  });
});
