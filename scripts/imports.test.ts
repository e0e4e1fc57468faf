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
    'package.json': JSON.stringify({
      workspaces: ['packages/contract', 'packages/labels', 'apps/server', 'apps/simulator', 'apps/web'],
    }),
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
      "import { CALLS } from '@esl/contract';\nimport type { Db } from '../infra/db/database';\n",
    'apps/server/src/infra/db/database.ts': 'export type Db = 1;\n',
    'apps/server/src/modules/index.ts': "import { h } from './users/routes';\n",
    'apps/server/src/modules/users/routes.ts': "import { list } from './service';\nexport const h = list;\n",
    'apps/server/src/modules/users/service.ts':
      "import { stores } from '../stores/service';\nexport const list = stores;\n",
    'apps/server/src/delivery/engine.ts': "import { list } from '../modules/users/service';\n",
    'apps/server/src/demo/stations.ts': "const sim = () => import('@esl/simulator');\n",
    'apps/server/src/app.ts': "import { e } from './delivery/engine';\nimport { s } from './demo/stations';\n",
    'apps/server/src/modules/users/users.test.ts': "import { app } from '../../app';\n",
    'apps/simulator/package.json': JSON.stringify({ name: '@esl/simulator', exports: { '.': './src/index.ts' } }),
    'apps/simulator/src/index.ts': 'export type X = 1;\n',
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
    expect(report.files).toBe(20);
  });

  it('names each broken rule with file, line and specifier', () => {
    const report = checkImports(
      tree({
        'packages/contract/src/calls.ts':
          "import { draw } from '@esl/labels';\nimport type { Db } from '../../../apps/server/src/infra/db/database';\n",
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
      'packages/contract/src/calls.ts:2 → ../../../apps/server/src/infra/db/database: packages import nothing of the apps (apps/, e2e/, bench/)',
      'packages/labels/src/pack.ts:1 → @esl/contract: labels imports nothing of the contract',
      'apps/server/src/modules/users/service.ts:1 → ../stores/repository: a module meets another module only through its service.ts',
      'apps/web/src/platform/i18n.ts:1 → ../shell/router: web platform/ imports no page or shell file',
      'packages/labels/src/model/document.ts:1 → ../draw: the labels model entry reaches only files of model/',
      'packages/labels/src/model/size.ts:1 → skia-canvas: the labels model entry imports no canvas code',
      // draw.ts is outside model/ (reported above), and what it imports is reached through it
      'packages/labels/src/draw.ts:1 → @napi-rs/canvas: the labels model entry imports no canvas code',
      'apps/server/src/api/register.ts:1 → ../modules/users/service: a server floor imports only its own or lower floors (api is below modules)',
    ]);
  });

  it('keeps the client package on its own: no workspace, npm package or node: module', () => {
    const report = checkImports(
      tree({
        'package.json': JSON.stringify({
          workspaces: [
            'packages/contract',
            'packages/labels',
            'packages/client',
            'apps/server',
            'apps/simulator',
            'apps/web',
          ],
        }),
        'packages/client/package.json': JSON.stringify({ name: '@esl/client', exports: { '.': './src/index.ts' } }),
        'packages/client/src/index.ts':
          "import { sign } from './sign.js';\nimport { CALLS } from '@esl/contract';\nimport { createHmac } from 'node:crypto';\n",
        'packages/client/src/sign.ts': "import { z } from 'zod';\nexport const sign = z;\n",
        'apps/server/src/modules/users/users.test.ts':
          "import { app } from '../../app';\nimport { sign } from '@esl/client';\n",
      }),
    );
    expect(report.violations).toEqual([
      'packages/client/src/index.ts:2 → @esl/contract: the client package (packages/client/src) imports only its own files',
      'packages/client/src/index.ts:3 → node:crypto: the client package (packages/client/src) imports only its own files',
      'packages/client/src/sign.ts:1 → zod: the client package (packages/client/src) imports only its own files',
    ]);
  });

  it('keeps the server on its floors: nothing runs up, no two folders import each other', () => {
    const report = checkImports(
      tree({
        // infra (floor 0) reaching up to a module, once statically and once lazily, and by a type
        'apps/server/src/infra/db/database.ts':
          "export type Db = 1;\nimport type { Row } from '../../modules/users/service';\nconst m = () => import('../../api/register');\n",
        // two modules that import each other (each through its service.ts: allowed by the module rule)
        'apps/server/src/modules/stores/service.ts':
          "import { rows } from './repository';\nimport { list } from '../users/service';\nexport const stores = rows;\n",
        // two folders of one floor (infra/cache and infra/db) importing each other
        'apps/server/src/infra/cache/shared.ts': "import type { Db } from '../db/database';\n",
        'apps/server/src/infra/db/query.ts': "import { c } from '../cache/shared';\n",
        // a file on no floor; the simulator loaded eagerly outside demo/; the simulator importing the server
        'apps/server/src/stray/x.ts': "import type { Db } from '../infra/db/database';\n",
        'apps/server/src/delivery/engine.ts': "import { startSimulator } from '@esl/simulator';\n",
        'apps/simulator/src/index.ts': "import { broker } from '../../server/src/delivery/engine';\n",
      }),
    );
    expect(report.violations).toEqual([
      'apps/server/src/delivery/engine.ts:1 → @esl/simulator: server code loads the simulator only in demo/, lazily (import() or import type); tests and test/ may',
      'apps/simulator/src/index.ts:1 → ../../server/src/delivery/engine: the simulator imports nothing of the server',
      'apps/server/src/infra/db/database.ts:2 → ../../modules/users/service: a server floor imports only its own or lower floors (infra is below modules)',
      'apps/server/src/infra/db/database.ts:3 → ../../api/register: a server floor imports only its own or lower floors (infra is below api)',
      'apps/server/src/stray/x.ts:1 → ../infra/db/database: every server file stands on a floor (SERVER_FLOORS)',
      // an import that runs up also makes two folders that import each other
      'apps/server/src/api/register.ts:2 → ../infra/db/database: two server folders never import each other (api/ and infra/ do, e.g. apps/server/src/infra/db/database.ts:3)',
      'apps/server/src/infra/cache/shared.ts:1 → ../db/database: two server folders never import each other (infra/cache/ and infra/db/ do, e.g. apps/server/src/infra/db/query.ts:1)',
      'apps/server/src/infra/db/database.ts:3 → ../../api/register: two server folders never import each other (infra/ and api/ do, e.g. apps/server/src/api/register.ts:2)',
      'apps/server/src/infra/db/query.ts:1 → ../cache/shared: two server folders never import each other (infra/db/ and infra/cache/ do, e.g. apps/server/src/infra/cache/shared.ts:1)',
      'apps/server/src/modules/stores/service.ts:2 → ../users/service: two server folders never import each other (modules/stores/ and modules/users/ do, e.g. apps/server/src/modules/users/service.ts:1)',
      'apps/server/src/modules/users/service.ts:1 → ../stores/service: two server folders never import each other (modules/users/ and modules/stores/ do, e.g. apps/server/src/modules/stores/service.ts:2)',
    ]);
  });

  it('keeps the shared test label out of product code', () => {
    const report = checkImports(
      tree({
        'packages/labels/package.json': JSON.stringify({
          name: '@esl/labels',
          exports: { '.': './src/index.ts', './model': './src/model/index.ts', './testing': './src/testing.ts' },
        }),
        'packages/labels/src/testing.ts': "import { Doc } from './model/document';\nexport const label = Doc;\n",
        'apps/server/src/test/shop.ts': "import { label } from '@esl/labels/testing';\n",
        'apps/server/src/modules/users/users.test.ts': "import { label } from '@esl/labels/testing';\n",
        'apps/server/src/demo/seed.ts': "import { label } from '@esl/labels/testing';\n",
      }),
    );
    expect(report.violations).toEqual([
      'apps/server/src/demo/seed.ts:1 → @esl/labels/testing: the test label (@esl/labels/testing) is for tests, test/, e2e/ and bench/ only',
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
        'apps/server/src/infra/db/database.ts': "export type Db = 1;\nexport * from './database';\n",
      }),
    );
    expect(report.violations).toEqual([]);
    expect(report.cycles).toEqual([
      ['apps/server/src/infra/db/database.ts', 'apps/server/src/infra/db/database.ts'],
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
