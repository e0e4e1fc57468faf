import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/ARCHITECTURE.md maps every folder in a line (STYLE.md): each workspace, each folder at the
// top of the repository, directly in a workspace or directly in a workspace's src/. Deeper
// folders are the business of the workspace's own guide (docs/SERVER.md is checked by the server).
const root = new URL('..', import.meta.url).pathname;
const doc = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');
const workspaces = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] })
  .workspaces;

/** Committed files and new ones not ignored: a folder made a minute ago counts. */
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => f !== '' && existsSync(join(root, f)));

function foldersToList(): string[] {
  const out = new Set<string>(workspaces);
  for (const file of files) {
    const parts = file.split('/');
    const dirs = parts.slice(0, -1);
    if (dirs.length === 1) out.add(dirs[0]);
    for (const w of workspaces) {
      if (!file.startsWith(`${w}/`)) continue;
      const inner = file
        .slice(w.length + 1)
        .split('/')
        .slice(0, -1);
      if (inner.length >= 1 && inner[0] !== 'src') out.add(`${w}/${inner[0]}`);
      if (inner.length >= 2 && inner[0] === 'src') out.add(`${w}/src/${inner[1]}`);
    }
  }
  return [...out].sort();
}

/** The first column of the table: `path/`. */
const listed = doc
  .split('\n')
  .map((line) => /^\| `([^`]+)\/` \|/.exec(line)?.[1])
  .filter((p): p is string => p !== undefined);

describe('docs/ARCHITECTURE.md', () => {
  it('lists every folder', () => {
    const missing = foldersToList().filter((f) => !listed.includes(f));
    expect(missing, 'add a line for each to the table in docs/ARCHITECTURE.md').toEqual([]);
  });

  it('lists only folders that exist (data/ is made at run time)', () => {
    expect(listed.filter((f) => f !== 'data' && !existsSync(join(root, f)))).toEqual([]);
  });

  it('names every file of docs/', () => {
    const docs = files.filter((f) => /^docs\/[^/]+$/.test(f)).map((f) => f.slice('docs/'.length));
    const row = doc.split('\n').find((l) => l.startsWith('| `docs/` |')) ?? '';
    expect(docs.filter((d) => !row.includes(d))).toEqual([]);
  });
});

/**
 * The repository's documents stand on their own: a reader has the repository, not the
 * specifications it was built from. No document points into ../shared or names SPEC.md,
 * DESIGN.md, DELIVERY.md or STYLE.md as a file to read; what matters is stated in the document.
 */
function outsideReferences(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/\.\.\/shared\b|\b(?:SPEC|DESIGN|DELIVERY|STYLE)\.md\b/g))
      found.push(`line ${i + 1}: ${m[0]}`);
  });
  return found;
}

describe('the documents stand on their own', () => {
  const documents = files.filter((f) => f.endsWith('.md') && !f.includes('node_modules/'));

  it('finds the documents (docs/, README.md, workspace READMEs)', () => {
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'docs/ARCHITECTURE.md', 'docs/CATALOGUE.md']));
  });

  it.each(documents)('%s names no file outside the repository', (file) => {
    expect(outsideReferences(readFileSync(join(root, file), 'utf8'))).toEqual([]);
  });

  it('catches a pointer to ../shared and a specification named as a file', () => {
    expect(outsideReferences('See ../shared/reference for panels.')).toEqual(['line 1: ../shared']);
    expect(outsideReferences('Intro\nSPEC.md §3 and DESIGN.md §7, DELIVERY.md, STYLE.md')).toHaveLength(4);
    expect(outsideReferences('The specification fixes the cookie name; docs/PROTOCOL.md has the rest.')).toEqual([]);
  });
});
