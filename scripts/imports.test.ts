import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkImports } from './imports';

// A small repository in a temporary folder: the same workspaces and folders as ours, a few files each.
let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

function tree(files: Record<string, string>) {
  root = mkdtempSync(join(tmpdir(), 'esl-imports-'));
  const base: Record<string, string> = {
    'package.json': JSON.stringify({ workspaces: ['packages/contract', 'packages/labels', 'apps/server', 'apps/web'] }),
    'packages/contract/package.json': JSON.stringify({ name: '@esl/contract', exports: { '.': './src/index.ts' } }),
    'packages/labels/package.json': JSON.stringify({
      name: '@esl/labels',
      exports: { '.': './src/index.ts', './model': './src/model/index.ts' },
    }),
    'apps/server/package.json': JSON.stringify({ name: '@esl/server' }),
    'apps/web/package.json': JSON.stringify({ name: '@esl/web' }),
    'packages/contract/src/index.ts':
      "import { z } from 'zod';\nimport { Doc } from '@esl/labels/model';\nexport const x = z;\n",
    'packages/labels/src/index.ts': "export * from './model';\nexport * from './draw';\n",
    'packages/labels/src/draw.ts':
      "import { createCanvas } from '@napi-rs/canvas';\nexport const draw = createCanvas;\n",
    'packages/labels/src/model/index.ts': "export * from './document';\n",
    'packages/labels/src/model/document.ts': 'export const Doc = 1;\n',
    'apps/server/src/api/register.ts':
      "import { CALLS } from '@esl/contract';\nimport type { Db } from '../db/database';\n",
    'apps/server/src/db/database.ts': 'export type Db = 1;\n',
    'apps/server/src/modules/index.ts': "import { h } from './users/routes';\n",
    'apps/server/src/modules/users/routes.ts': "import { list } from './service';\nexport const h = list;\n",
    'apps/server/src/modules/users/service.ts':
      "import { stores } from '../stores/service';\nexport const list = stores;\n",
    'apps/server/src/modules/stores/service.ts': "import { rows } from './repository';\nexport const stores = rows;\n",
    'apps/server/src/modules/stores/repository.ts': 'export const rows = 1;\n',
    'apps/web/src/platform/i18n.ts': "import './theme.css';\nexport const t = 1;\n",
    'apps/web/src/platform/theme.css': '',
    'apps/web/src/shell/router.tsx':
      "import { t } from '../platform/i18n';\nconst page = () => import('../pages/a/index');\n",
    'apps/web/src/pages/a/index.tsx': "import { t } from '../../platform/i18n';\nexport default t;\n",
  };
  for (const [path, text] of Object.entries({ ...base, ...files })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('scripts/imports.ts', () => {
  it('passes a tree that follows the rules', () => {
    const report = checkImports(tree({}));
    expect(report.violations).toEqual([]);
    expect(report.cycles).toEqual([]);
    expect(report.files).toBe(15);
  });

  it('names each broken rule with file, line and specifier', () => {
    const report = checkImports(
      tree({
        'packages/contract/src/calls.ts':
          "import { draw } from '@esl/labels';\nimport type { Db } from '../../../apps/server/src/db/database';\n",
        'packages/labels/src/model/document.ts': "import { draw } from '../draw';\nexport const Doc = 1;\n",
        'packages/labels/src/model/size.ts': "import { Canvas } from 'skia-canvas';\n",
        'packages/labels/src/model/index.ts': "export * from './document';\nexport * from './size';\n",
        'packages/labels/src/pack.ts': "import { CALLS } from '@esl/contract';\n",
        'apps/server/src/api/register.ts': "import { list } from '../modules/users/service';\n",
        'apps/server/src/modules/users/service.ts':
          "import { rows } from '../stores/repository';\nexport const list = rows;\n",
        'apps/web/src/platform/i18n.ts': "import { page } from '../shell/router';\nimport x from '@esl/labels/nope';\n",
      }),
    );
    expect(report.violations).toEqual([
      "apps/web/src/platform/i18n.ts:2 → @esl/labels/nope: does not resolve to a source file (or is not in the package's exports)",
      'packages/contract/src/calls.ts:1 → @esl/labels: the contract imports labels only through @esl/labels/model',
      'packages/contract/src/calls.ts:2 → ../../../apps/server/src/db/database: packages import nothing of the apps (apps/, e2e/, bench/)',
      'packages/labels/src/pack.ts:1 → @esl/contract: labels imports nothing of the contract',
      'apps/server/src/api/register.ts:1 → ../modules/users/service: server infrastructure (src/{api,db,lib,notice,auth,audit,web,cache,openapi}, config.ts) imports no domain module',
      'apps/server/src/modules/users/service.ts:1 → ../stores/repository: a module meets another module only through its service.ts',
      'apps/web/src/platform/i18n.ts:1 → ../shell/router: web platform/ imports no page or shell file',
      'packages/labels/src/model/document.ts:1 → ../draw: the labels model entry reaches only files of model/',
      'packages/labels/src/model/size.ts:1 → skia-canvas: the labels model entry imports no canvas code',
      // draw.ts is outside model/ (reported above), and what it imports is reached through it
      'packages/labels/src/draw.ts:1 → @napi-rs/canvas: the labels model entry imports no canvas code',
    ]);
  });

  it('reports each import cycle as a chain, lazy imports and type imports included', () => {
    const report = checkImports(
      tree({
        // contract: calls.ts ↔ calls/users.ts, through an `import type`
        'packages/contract/src/calls.ts': "export * from './calls/users';\n",
        'packages/contract/src/calls/users.ts': "import type { Call } from '../calls';\n",
        // web: the router lazily imports a page that imports the router back through a hook
        'apps/web/src/pages/a/index.tsx': "import { useRefresh } from '../../shell/refresh';\n",
        'apps/web/src/shell/refresh.ts': "import { router } from './router';\n",
        // server: a file importing itself
        'apps/server/src/db/database.ts': "export type Db = 1;\nexport * from './database';\n",
      }),
    );
    expect(report.violations).toEqual([]);
    expect(report.cycles).toEqual([
      ['apps/server/src/db/database.ts', 'apps/server/src/db/database.ts'],
      [
        'apps/web/src/pages/a/index.tsx',
        'apps/web/src/shell/refresh.ts',
        'apps/web/src/shell/router.tsx',
        'apps/web/src/pages/a/index.tsx',
      ],
      ['packages/contract/src/calls.ts', 'packages/contract/src/calls/users.ts', 'packages/contract/src/calls.ts'],
    ]);
  });
});
