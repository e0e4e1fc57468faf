#!/usr/bin/env node
// Gzip size of the console's JavaScript, from apps/web/dist and Vite's manifest:
// what /login needs, what each route adds on top, and the whole app; and the handheld page's
// (pda.html, docs/PDA.md): what it loads at first, and the camera decoder it loads lazily.
// Usage: npm run build && node bench/bundle-size.mjs [--json]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../apps/web/dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const LOGIN_GOAL_KB = 300;
const ROUTE_GOAL_KB = 400;
const PDA_GOAL_KB = 150;

const gzipCache = new Map();
function gzipBytes(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(join(dist, file)), { level: 6 }).length);
  return gzipCache.get(file);
}
const rawBytes = (file) => statSync(join(dist, file)).size;
const kb = (n) => Math.round((n / 1024) * 10) / 10;

/** Every JS file loaded (statically) with the manifest entry `key`. */
function closure(key, seen = new Set()) {
  const entry = manifest[key];
  if (!entry || seen.has(entry.file)) return seen;
  if (entry.file.endsWith('.js')) seen.add(entry.file);
  for (const dep of entry.imports ?? []) closure(dep, seen);
  return seen;
}
const sum = (files, size = gzipBytes) => [...files].reduce((n, f) => n + size(f), 0);

// Two entries: the console (index.html) and the handheld page (pda.html).
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry && k.endsWith('index.html'));
const entryFiles = closure(entryKey);
const keyOf = (src) => Object.keys(manifest).find((k) => k.endsWith(src));

const login = new Set([...entryFiles, ...closure(keyOf('src/pages/login/index.tsx'))]);
// The layout renders once the current language's other texts are in (platform/i18n.ts): the
// Chinese chunk (the default language, and the larger) counts as part of it.
const layout = closure(keyOf('src/shell/layout/Layout.tsx'));
const texts = keyOf('src/platform/texts-zh-CN.ts');
if (texts) closure(texts, layout);

const routes = Object.keys(manifest)
  .filter((k) => manifest[k].isDynamicEntry && k.startsWith('src/pages/'))
  .map((k) => {
    // Pages outside the main layout load without it.
    const outside = /pages\/(login|error|authRedirect)\//.test(k);
    const files = new Set([...(outside ? [] : layout), ...closure(k)]);
    const extra = [...files].filter((f) => !entryFiles.has(f));
    return { page: k.replace(/^src\/pages\//, '').replace(/\/index\.tsx$|\.tsx$/, ''), gzip: sum(extra) };
  })
  .sort((a, b) => b.gzip - a.gzip);

const pdaKey = Object.keys(manifest).find((k) => manifest[k].isEntry && k.endsWith('pda.html'));
const pdaFiles = pdaKey ? closure(pdaKey) : new Set();
/** Every JS file the handheld page may load later (camera view, zxing-wasm glue), beyond its first load. */
const pdaLazy = new Set();
for (const key of Object.keys(manifest).filter((k) => k.startsWith('src/pda/'))) {
  for (const f of closure(key)) if (!pdaFiles.has(f)) pdaLazy.add(f);
}
const wasm = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.wasm'));
// The handheld page must not load the contract chunk (zod and the schemas) or antd's.
const pdaHeavy = [...pdaFiles].filter((f) => /[\\/](contract|antd|Button|useToken)-/.test(f));

const allJs = readdirSync(join(dist, 'assets'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => `assets/${f}`);
const largestChunk = allJs.map((f) => ({ file: f, gzip: gzipBytes(f) })).sort((a, b) => b.gzip - a.gzip)[0];

const result = {
  loginJsGzipKB: kb(sum(login)),
  loginJsRawKB: kb(sum(login, rawBytes)),
  entryJsGzipKB: kb(sum(entryFiles)),
  layoutExtraGzipKB: kb(sum([...layout].filter((f) => !entryFiles.has(f)))),
  largestRoute: routes[0] ? { page: routes[0].page, extraGzipKB: kb(routes[0].gzip) } : null,
  largestChunk: { file: largestChunk.file, gzipKB: kb(largestChunk.gzip) },
  wholeAppJsGzipKB: kb(sum(allJs)),
  wholeAppJsRawKB: kb(sum(allJs, rawBytes)),
  jsFiles: allJs.length,
  routes: routes.map((r) => ({ page: r.page, extraGzipKB: kb(r.gzip) })),
  pda: {
    jsGzipKB: kb(sum(pdaFiles)),
    jsRawKB: kb(sum(pdaFiles, rawBytes)),
    files: [...pdaFiles],
    lazyJsGzipKB: kb(sum(pdaLazy)),
    wasmGzipKB: kb(wasm.reduce((n, f) => n + gzipBytes(`assets/${f}`), 0)),
    heavyChunks: pdaHeavy,
  },
};

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(result, null, 2));
} else {
  console.log(
    `JS for /login:            ${result.loginJsGzipKB} KB gzip (${result.loginJsRawKB} KB raw), goal ≤ ${LOGIN_GOAL_KB}`,
  );
  console.log(`  of which the entry:     ${result.entryJsGzipKB} KB gzip`);
  console.log(`layout (after login):     +${result.layoutExtraGzipKB} KB gzip`);
  console.log(
    `largest route (its JS beyond the entry, layout included): ${result.largestRoute?.page} +${result.largestRoute?.extraGzipKB} KB gzip, goal ≤ ${ROUTE_GOAL_KB}`,
  );
  console.log(`largest single chunk:     ${result.largestChunk.file} ${result.largestChunk.gzipKB} KB gzip`);
  console.log(
    `whole app JS:             ${result.wholeAppJsGzipKB} KB gzip (${result.wholeAppJsRawKB} KB raw, ${result.jsFiles} files)`,
  );
  for (const r of result.routes) console.log(`  ${r.page.padEnd(24)} +${r.extraGzipKB} KB`);
  console.log(
    `handheld /pda/ JS:        ${result.pda.jsGzipKB} KB gzip (${result.pda.jsRawKB} KB raw, ${result.pda.files.length} files), goal ≤ ${PDA_GOAL_KB}`,
  );
  console.log(
    `  camera, loaded lazily:  +${result.pda.lazyJsGzipKB} KB gzip JS, +${result.pda.wasmGzipKB} KB gzip WebAssembly`,
  );
  if (pdaHeavy.length) console.log(`  loads console chunks it must not: ${pdaHeavy.join(', ')}`);
}
const ok =
  result.loginJsGzipKB <= LOGIN_GOAL_KB &&
  (result.largestRoute?.extraGzipKB ?? 0) <= ROUTE_GOAL_KB &&
  result.pda.jsGzipKB > 0 &&
  pdaHeavy.length === 0 &&
  result.pda.jsGzipKB <= PDA_GOAL_KB;
process.exitCode = ok ? 0 : 1;
