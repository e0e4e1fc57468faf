// Builds the integrators' client (packages/client) as the package to publish: JavaScript (ES2022
// modules) and type declarations in one folder with its own package.json, the workspace's minus
// `private` and `scripts`, exporting ./index.js. `npm run build -w packages/client` writes
// packages/client/dist; publish that folder (`npm publish packages/client/dist`). The workspace
// itself exports its TypeScript source to the repository and is private, so it is never published
// by mistake. apps/server/src/open/client.test.ts builds into a temporary folder and calls a
// running server with the result. Usage: node --import tsx scripts/build-client.ts [OUT_DIR]
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const CLIENT = fileURLToPath(new URL('../packages/client', import.meta.url));

/** Emits the package into `outDir` (emptied first); throws with TypeScript's messages on an error. */
export function buildClient(outDir: string): void {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const configPath = join(CLIENT, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, CLIENT);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    outDir,
    rootDir: join(CLIENT, 'src'),
    sourceMap: false,
  };
  const program = ts.createProgram(parsed.fileNames, options);
  const result = program.emit();
  const problems = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  if (problems.length || result.emitSkipped) {
    const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => CLIENT, getNewLine: () => '\n' };
    throw new Error(`building @esl/client failed:\n${ts.formatDiagnostics(problems, host)}`);
  }
  const manifest = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const { private: _private, scripts: _scripts, exports: _exports, ...published } = manifest;
  const out = {
    ...published,
    exports: { '.': { types: './index.d.ts', default: './index.js' } },
    types: './index.d.ts',
  };
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(out, null, 2)}\n`);
  cpSync(join(CLIENT, 'README.md'), join(outDir, 'README.md'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outDir = resolve(process.argv[2] ?? join(CLIENT, 'dist'));
  buildClient(outDir);
  console.log(`built @esl/client in ${outDir}`);
}
