// The import rules of the repository (docs/ARCHITECTURE.md, "Import rules"), checked over the
// TypeScript imports of every workspace: `node --import tsx scripts/imports.ts` prints each
// broken rule and each import cycle as a chain and exits 1; `npm test` runs it.
//
// Every kind of import counts: static, `import type`, re-exports, `import()` (a lazy import is a
// cycle too, only later) and `require()`. Relative paths are resolved the way the bundler
// resolution of tsconfig.base.json does; `@esl/<name>[/<entry>]` through the workspace's
// package.json `exports`. Other bare names are outside packages and only checked where a rule
// names them (canvas code in the labels model).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export interface Import {
  /** Repository-relative path of the importing file, `/`-separated. */
  from: string;
  /** The specifier as written. */
  specifier: string;
  /** Repository-relative path of the imported source file; undefined for outside packages. */
  to?: string;
  line: number;
  /** Loaded only when it runs: `import()`, or erased from the build: `import type`. */
  lazy?: boolean;
}

export interface Report {
  /** One line per broken rule: `file:line → specifier: rule`. */
  violations: string[];
  /** Each import cycle as a chain of files ending where it started. */
  cycles: string[][];
  files: number;
}

const SOURCE = /\.(ts|tsx|mts|cts)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'artifacts', 'test-results', 'data', 'coverage']);
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.d.ts'];

/**
 * The floors of the server (docs/ARCHITECTURE.md, "Server floors"), lowest first: each entry of
 * apps/server/src stands on one, and imports only from its own floor or lower ones.
 */
export const SERVER_FLOORS: readonly (readonly string[])[] = [
  ['infra'],
  ['outbox'],
  ['api'],
  ['modules'],
  ['delivery', 'open', 'metrics', 'demo'],
  ['app.ts'],
  ['main.ts', 'cli.ts', 'test'],
];

interface Workspace {
  dir: string;
  name: string;
  exports: Map<string, string>;
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

function workspaces(root: string): Workspace[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  return (manifest.workspaces ?? []).map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
      name: string;
      exports?: string | Record<string, string>;
      main?: string;
    };
    const exports = new Map<string, string>();
    if (typeof pkg.exports === 'string') exports.set('.', pkg.exports);
    else if (pkg.exports) for (const [key, target] of Object.entries(pkg.exports)) exports.set(key, target);
    else if (pkg.main) exports.set('.', pkg.main);
    return { dir: toPosix(dir).replace(/\/$/, ''), name: pkg.name, exports };
  });
}

function sourceFiles(root: string, dir: string, out: string[]): string[] {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) sourceFiles(root, path, out);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every module specifier in a file, with its line. */
export function specifiers(fileName: string, text: string): { specifier: string; line: number; lazy: boolean }[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const found: { specifier: string; line: number; lazy: boolean }[] = [];
  const add = (node: ts.Node | undefined, lazy = false) => {
    if (node && ts.isStringLiteralLike(node)) {
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      found.push({ specifier: node.text, line, lazy });
    }
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node.importClause?.isTypeOnly === true);
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const dynamic = callee.kind === ts.SyntaxKind.ImportKeyword;
      const required = ts.isIdentifier(callee) && callee.text === 'require';
      if ((dynamic || required) && node.arguments.length > 0) add(node.arguments[0], dynamic);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function resolveFile(root: string, path: string): string | undefined {
  const abs = join(root, path);
  const candidates = [abs];
  const js = /\.(m|c)?jsx?$/.exec(abs);
  if (js) candidates.push(abs.slice(0, -js[0].length));
  const tries = candidates.flatMap((c) => [
    c,
    ...EXTENSIONS.map((e) => c + e),
    ...EXTENSIONS.map((e) => join(c, `index${e}`)),
  ]);
  const hit = tries.find((c) => existsSync(c) && statSync(c).isFile());
  return hit === undefined ? undefined : toPosix(relative(root, hit));
}

/** Reads and resolves the imports of every workspace (and `scripts/`) under `root`. */
export function readImports(root: string): { files: string[]; imports: Import[]; unresolved: Import[] } {
  const spaces = workspaces(root);
  const dirs = [...spaces.map((w) => w.dir), ...(existsSync(join(root, 'scripts')) ? ['scripts'] : [])];
  const files = dirs.flatMap((d) => sourceFiles(root, d, []));
  const imports: Import[] = [];
  const unresolved: Import[] = [];
  for (const from of files) {
    for (const { specifier, line, lazy } of specifiers(from, readFileSync(join(root, from), 'utf8'))) {
      const bare = specifier.replace(/[?#].*$/, '');
      let to: string | undefined;
      let local = false;
      if (bare.startsWith('.')) {
        local = true;
        to = resolveFile(root, toPosix(join(dirname(from), bare)));
        // Style sheets, images, JSON: resolved by the bundler, no imports of their own.
        if (to !== undefined && !SOURCE.test(to)) continue;
        if (to === undefined && /\.(css|svg|png|jpe?g|json|woff2?|wasm|txt)$/.test(bare)) continue;
      } else {
        const space = spaces.find((w) => bare === w.name || bare.startsWith(`${w.name}/`));
        if (space) {
          local = true;
          const entry = `.${bare.slice(space.name.length)}`;
          const target = space.exports.get(entry);
          to = target === undefined ? undefined : resolveFile(root, toPosix(join(space.dir, target)));
        }
      }
      const found: Import = { from, specifier, to, line, ...(lazy ? { lazy } : {}) };
      if (local && to === undefined) unresolved.push(found);
      else imports.push(found);
    }
  }
  return { files, imports, unresolved };
}

const under = (path: string | undefined, folder: string) => (path ?? '').startsWith(`${folder}/`);

/** A rule: what it says, and which imports break it. */
interface Rule {
  name: string;
  broken: (i: Import) => boolean;
}

const SERVER = 'apps/server/src';
/** Tests and the test harness stand above every floor: they may import any of them. */
const TEST = /\.test\.tsx?$/;
const MODULES = 'apps/server/src/modules';

/** The floor of a server file (index into SERVER_FLOORS), -1 for one on no floor, undefined outside the server or for a test. */
export function floorOf(path: string | undefined): number | undefined {
  if (!under(path, SERVER) || TEST.test(path as string)) return undefined;
  const entry = (path as string).slice(SERVER.length + 1).split('/')[0];
  return SERVER_FLOORS.findIndex((floor) => floor.includes(entry));
}

/**
 * Server imports that break the floors: from a lower floor to a higher one, a file on no floor,
 * and two sibling folders (at any depth: infra/db and infra/cache, modules/tags and
 * modules/templates, delivery and open) that import each other. Type-only and lazy imports count.
 */
function floorViolations(imports: Import[]): string[] {
  const out: string[] = [];
  const pairs = new Map<string, Import[]>();
  for (const i of imports) {
    const from = floorOf(i.from);
    const to = floorOf(i.to);
    if (from === undefined || to === undefined) continue;
    if (from === -1) {
      out.push(`${i.from}:${i.line} → ${i.specifier}: every server file stands on a floor (SERVER_FLOORS)`);
      continue;
    }
    if (to > from) {
      out.push(
        `${i.from}:${i.line} → ${i.specifier}: a server floor imports only its own or lower floors (${SERVER_FLOORS[from].join(', ')} is below ${SERVER_FLOORS[to].join(', ')})`,
      );
    }
    const a = (i.from as string).slice(SERVER.length + 1).split('/');
    const b = (i.to as string).slice(SERVER.length + 1).split('/');
    let k = 0;
    while (k < a.length - 1 && k < b.length - 1 && a[k] === b[k]) k++;
    // Two folders side by side (a file directly in their common folder is in neither).
    if (k < a.length - 1 && k < b.length - 1) {
      const key = `${a.slice(0, k + 1).join('/')}|${b.slice(0, k + 1).join('/')}`;
      pairs.set(key, [...(pairs.get(key) ?? []), i]);
    }
  }
  for (const [key, list] of pairs) {
    const [a, b] = key.split('|');
    const back = pairs.get(`${b}|${a}`);
    if (!back) continue;
    for (const i of list) {
      out.push(
        `${i.from}:${i.line} → ${i.specifier}: two server folders never import each other (${a}/ and ${b}/ do, e.g. ${back[0].from}:${back[0].line})`,
      );
    }
  }
  return out;
}
/** The module a file belongs to: the folder below modules/ (modules/index.ts, the handler map, is in none). */
const moduleOf = (path: string | undefined) => {
  const parts = under(path, MODULES) ? (path as string).slice(MODULES.length + 1).split('/') : [];
  return parts.length > 1 ? parts[0] : undefined;
};

export const RULES: Rule[] = [
  {
    name: 'packages import nothing of the apps (apps/, e2e/, bench/)',
    broken: (i) => under(i.from, 'packages') && (under(i.to, 'apps') || under(i.to, 'e2e') || under(i.to, 'bench')),
  },
  {
    name: 'the contract imports labels only through @esl/labels/model',
    broken: (i) =>
      under(i.from, 'packages/contract') &&
      under(i.to, 'packages/labels') &&
      !(i.specifier === '@esl/labels/model' || i.specifier.startsWith('@esl/labels/model/')),
  },
  {
    name: 'labels imports nothing of the contract',
    broken: (i) => under(i.from, 'packages/labels') && under(i.to, 'packages/contract'),
  },
  {
    name: 'the test label (@esl/labels/testing) is for tests, test/, e2e/ and bench/ only',
    broken: (i) =>
      i.to === 'packages/labels/src/testing.ts' &&
      !TEST.test(i.from) &&
      !under(i.from, `${SERVER}/test`) &&
      !under(i.from, 'e2e') &&
      !under(i.from, 'bench') &&
      !under(i.from, 'packages/labels/test'),
  },
  {
    name: 'the simulator imports nothing of the server',
    broken: (i) => under(i.from, 'apps/simulator') && under(i.to, 'apps/server'),
  },
  {
    name: 'server code loads the simulator only in demo/, lazily (import() or import type); tests and test/ may',
    broken: (i) =>
      under(i.from, SERVER) &&
      !TEST.test(i.from) &&
      !under(i.from, `${SERVER}/test`) &&
      under(i.to, 'apps/simulator') &&
      !(under(i.from, `${SERVER}/demo`) && i.lazy),
  },
  {
    // The server runs bridges in its own process (delivery/bridges/): @esl/bridge must not bring
    // the simulator with it. Its tests and its test rig (src/test/, `@esl/bridge/testing`) may.
    name: 'the bridge program imports nothing of the simulator (only its tests and src/test/)',
    broken: (i) =>
      under(i.from, 'apps/bridge/src') &&
      !TEST.test(i.from) &&
      !under(i.from, 'apps/bridge/src/test') &&
      under(i.to, 'apps/simulator'),
  },
  {
    name: 'a module meets another module only through its service.ts',
    broken: (i) => {
      const a = moduleOf(i.from);
      const b = moduleOf(i.to);
      return a !== undefined && b !== undefined && a !== b && i.to !== `${MODULES}/${b}/service.ts`;
    },
  },
  {
    // Published on its own (docs/INTEGRATION.md): no workspace, no npm package, no node: module.
    name: 'the client package (packages/client/src) imports only its own files',
    broken: (i) =>
      under(i.from, 'packages/client/src') &&
      !TEST.test(i.from) &&
      (i.to === undefined ? !i.specifier.startsWith('.') : !under(i.to, 'packages/client/src')),
  },
  {
    name: 'web platform/ imports no page or shell file',
    broken: (i) =>
      under(i.from, 'apps/web/src/platform') &&
      (under(i.to, 'apps/web/src/pages') || under(i.to, 'apps/web/src/shell')),
  },
];

/** The labels model entry and everything it reaches stay in model/ and draw nothing. */
const MODEL_ENTRY = 'packages/labels/src/model/index.ts';
const MODEL_DIR = 'packages/labels/src/model';
const CANVAS = /canvas/i;

function modelViolations(imports: Import[]): string[] {
  const byFile = new Map<string, Import[]>();
  for (const i of imports) byFile.set(i.from, [...(byFile.get(i.from) ?? []), i]);
  const out: string[] = [];
  const seen = new Set<string>();
  const queue = [MODEL_ENTRY];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of byFile.get(file) ?? []) {
      if (i.to !== undefined && !under(i.to, MODEL_DIR)) {
        out.push(`${i.from}:${i.line} → ${i.specifier}: the labels model entry reaches only files of model/`);
      } else if (i.to === undefined && CANVAS.test(i.specifier)) {
        out.push(`${i.from}:${i.line} → ${i.specifier}: the labels model entry imports no canvas code`);
      }
      if (i.to !== undefined) queue.push(i.to);
    }
  }
  return out;
}

/** Strongly connected components (Tarjan), then one chain through each. */
export function findCycles(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string) => {
    order.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!order.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, order.get(w) as number));
      }
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || edges.get(v)?.has(v)) components.push(component);
    }
  };
  for (const v of [...edges.keys()].sort()) if (!order.has(v)) connect(v);

  // A shortest chain from the component's first file back to itself, inside the component.
  return components
    .map((component) => {
      const members = new Set(component);
      const start = [...component].sort()[0];
      const previous = new Map<string, string>();
      const queue = [start];
      let end: string | undefined;
      while (queue.length > 0 && end === undefined) {
        const v = queue.shift() as string;
        for (const w of [...(edges.get(v) ?? [])].sort()) {
          if (!members.has(w)) continue;
          if (w === start) {
            end = v;
            break;
          }
          if (!previous.has(w)) {
            previous.set(w, v);
            queue.push(w);
          }
        }
      }
      const chain = [start];
      for (let v = end; v !== undefined && v !== start; v = previous.get(v)) chain.splice(1, 0, v);
      chain.push(start);
      return chain;
    })
    .sort((a, b) => a[0].localeCompare(b[0]));
}

export function checkImports(root: string): Report {
  const { files, imports, unresolved } = readImports(resolve(root));
  const violations = unresolved.map(
    (i) =>
      `${i.from}:${i.line} → ${i.specifier}: does not resolve to a source file (or is not in the package's exports)`,
  );
  for (const i of imports) {
    for (const rule of RULES) if (rule.broken(i)) violations.push(`${i.from}:${i.line} → ${i.specifier}: ${rule.name}`);
  }
  if (files.includes(MODEL_ENTRY)) violations.push(...modelViolations(imports));
  violations.push(...floorViolations(imports));
  const edges = new Map<string, Set<string>>();
  for (const f of files) edges.set(f, new Set());
  for (const i of imports) if (i.to !== undefined) edges.get(i.from)?.add(i.to);
  return { violations, cycles: findCycles(edges), files: files.length };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const report = checkImports(new URL('..', import.meta.url).pathname);
  for (const v of report.violations) console.log(`  ${v}`);
  for (const c of report.cycles) console.log(`  cycle: ${c.join(' → ')}`);
  const broken = report.violations.length + report.cycles.length;
  console.log(
    broken === 0
      ? `imports: ${report.files} files follow the import rules, no cycles`
      : `imports: ${report.violations.length} broken rules, ${report.cycles.length} cycles (docs/ARCHITECTURE.md, "Import rules")`,
  );
  process.exit(broken === 0 ? 0 : 1);
}
