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

/** The server folders below the domain modules (docs/SERVER.md, "Layout"). */
export const SERVER_INFRASTRUCTURE = ['api', 'db', 'lib', 'notice', 'auth', 'audit', 'web', 'cache', 'openapi'];

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
export function specifiers(fileName: string, text: string): { specifier: string; line: number }[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const found: { specifier: string; line: number }[] = [];
  const add = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) {
      found.push({ specifier: node.text, line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1 });
    }
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const dynamic = callee.kind === ts.SyntaxKind.ImportKeyword;
      const required = ts.isIdentifier(callee) && callee.text === 'require';
      if ((dynamic || required) && node.arguments.length > 0) add(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal);
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
    for (const { specifier, line } of specifiers(from, readFileSync(join(root, from), 'utf8'))) {
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
      const found: Import = { from, specifier, to, line };
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

const MODULES = 'apps/server/src/modules';
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
    name: `server infrastructure (src/{${SERVER_INFRASTRUCTURE.join(',')}}, config.ts) imports no domain module`,
    broken: (i) =>
      (SERVER_INFRASTRUCTURE.some((f) => under(i.from, `apps/server/src/${f}`)) ||
        i.from === 'apps/server/src/config.ts') &&
      under(i.to, MODULES),
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
