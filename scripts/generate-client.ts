// Writes packages/client/src/generated.ts, the typed part of the integrators' client (@esl/client),
// from the committed OpenAPI document docs/openapi.json (issue 26 item 10): one body, data and
// answer type per integration call (/open/v1), the calls' paths, the signing headers and the
// product version. `node --import tsx scripts/generate-client.ts` (or `npm run generate -w
// packages/client`) refreshes it; scripts/client.test.ts fails when the file is stale.
//
// The JSON Schema handled is what zod 4's toJSONSchema writes (object, array, string, number,
// integer, boolean, null, enum, const, anyOf/oneOf, $ref to components); anything else becomes
// `unknown`, so a new construct shows up in review rather than as a wrong type.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Schema = Record<string, unknown>;
interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
export interface OpenApi {
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, { name?: string; in?: string }> };
}

export const DOCUMENT = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
export const GENERATED = fileURLToPath(new URL('../packages/client/src/generated.ts', import.meta.url));
export const GENERATE = 'node --import tsx scripts/generate-client.ts';

/** The integration calls: those under this prefix. */
const OPEN_PREFIX = '/open/v1/';
const SAFE = Number.MAX_SAFE_INTEGER;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const comment = (text: string) => text.replaceAll('*/', '*\\/');

/** The client's method for an operation: `open.openStoreList` → `storeList`. */
export function methodName(operationId: string): string {
  const bare = operationId.replace(/^open\./, '').replace(/^open(?=[A-Z])/, '');
  return bare.charAt(0).toLowerCase() + bare.slice(1);
}

/** What a property's comment says of its limits: lengths, ranges, counts, pattern, default. */
function limits(s: Schema): string[] {
  const out: string[] = [];
  const range = (min: unknown, max: unknown, unit: string) => {
    const lo = typeof min === 'number' && min > -SAFE ? min : undefined;
    const hi = typeof max === 'number' && max < SAFE ? max : undefined;
    if (lo !== undefined && hi !== undefined) out.push(`${lo}–${hi}${unit}`);
    else if (lo !== undefined) out.push(`at least ${lo}${unit}`);
    else if (hi !== undefined) out.push(`at most ${hi}${unit}`);
  };
  range(s.minLength, s.maxLength, ' characters');
  range(s.minimum, s.maximum, '');
  if (typeof s.exclusiveMinimum === 'number') out.push(`more than ${s.exclusiveMinimum}`);
  range(s.minItems, s.maxItems, ' items');
  if (typeof s.pattern === 'string') out.push(`pattern \`${s.pattern}\``);
  if (typeof s.format === 'string') out.push(`format ${s.format}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out;
}

function docComment(s: Schema, pad: string): string {
  const parts = [typeof s.description === 'string' ? s.description : '', limits(s).join(', ')].filter(Boolean);
  if (!parts.length) return '';
  const text = comment(parts.join(parts[0]?.endsWith('.') ? ' ' : '; '));
  return `${pad}/** ${text} */\n`;
}

/** The TypeScript type of a schema, laid out at `depth` (two spaces a level). */
export function typeOf(s: Schema | undefined, depth = 0): string {
  if (!s || typeof s !== 'object') return 'unknown';
  if (typeof s.$ref === 'string') return s.$ref.replace(/^#\/components\/schemas\//, '');
  if ('const' in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const union = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (Array.isArray(union)) return [...new Set(union.map((u) => wrap(typeOf(u, depth))))].join(' | ');
  if (Array.isArray(s.type)) {
    return [...new Set(s.type.map((t) => wrap(typeOf({ ...s, type: t }, depth))))].join(' | ');
  }
  switch (s.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return s.items ? `${wrap(typeOf(s.items as Schema, depth))}[]` : 'unknown[]';
    case 'object':
      return objectOf(s, depth);
    default:
      return 'unknown';
  }
}

/** A union or function type inside `T[]` needs parentheses. */
function wrap(type: string): string {
  return /[|&]/.test(type) && !/^\{[\s\S]*\}$/.test(type) ? `(${type})` : type;
}

function objectOf(s: Schema, depth: number): string {
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set((s.required ?? []) as string[]);
  const extra = s.additionalProperties;
  const names = Object.keys(properties);
  if (!names.length) {
    if (extra && typeof extra === 'object') return `Record<string, ${typeOf(extra as Schema, depth)}>`;
    return extra === true ? 'Record<string, unknown>' : 'Record<string, never>';
  }
  const pad = '  '.repeat(depth + 1);
  const lines = names.map((name) => {
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    const optional = required.has(name) ? '' : '?';
    return `${docComment(properties[name], pad)}${pad}${key}${optional}: ${typeOf(properties[name], depth + 1)};\n`;
  });
  if (extra && typeof extra === 'object') lines.push(`${pad}[key: string]: unknown;\n`);
  return `{\n${lines.join('')}${'  '.repeat(depth)}}`;
}

/** `export interface` for an object with properties, `export type` otherwise. */
function declare(name: string, s: Schema | undefined, about?: string): string {
  const head = about ? `/** ${comment(about)} */\n` : '';
  const type = typeOf(s);
  if (type.startsWith('{\n')) return `${head}export interface ${name} ${type}\n`;
  return `${head}export type ${name} = ${type};\n`;
}

function jsonSchema(content: Record<string, { schema?: Schema }> | undefined): Schema | undefined {
  return content?.['application/json']?.schema;
}

/** The source of packages/client/src/generated.ts for a document, laid out by the repository's formatter. */
export function clientSource(doc: OpenApi): string {
  const biome = fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url));
  const run = spawnSync(biome, ['format', `--stdin-file-path=${GENERATED}`], {
    input: rawSource(doc),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`biome format failed: ${run.stderr}`);
  return run.stdout;
}

function rawSource(doc: OpenApi): string {
  const out: string[] = [
    '// Generated from docs/openapi.json by scripts/generate-client.ts: do not edit by hand.',
    `// Refresh with \`${GENERATE}\` (scripts/client.test.ts fails when this file is stale).`,
    '',
    `/** The product version the document describes (${comment(doc.info.title)}). */`,
    `export const API_VERSION = ${JSON.stringify(doc.info.version)};`,
    '',
  ];
  const schemes = doc.components.securitySchemes;
  const header = (scheme: string) => {
    const name = schemes[scheme]?.name;
    if (!name || schemes[scheme]?.in !== 'header') throw new Error(`security scheme ${scheme}: not a header`);
    return JSON.stringify(name);
  };
  out.push(
    '/** The headers of a signed call (security schemes openKey, openTimestamp, openNonce, openSignature). */',
    'export const SIGNING_HEADERS = {',
    `  key: ${header('openKey')},`,
    `  timestamp: ${header('openTimestamp')},`,
    `  nonce: ${header('openNonce')},`,
    `  signature: ${header('openSignature')},`,
    '} as const;',
    '',
  );

  const used = new Set<string>();
  const operations: {
    method: string;
    P: string;
    path: string;
    op: Operation;
    list: boolean;
    data: Schema;
    refusals: string[];
  }[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith(OPEN_PREFIX) || !item.post) continue;
    const op = item.post;
    const method = methodName(op.operationId);
    const P = pascal(method);
    const answer = jsonSchema(op.responses['200']?.content);
    const branches = (answer?.oneOf ?? []) as Schema[];
    const success = branches[0];
    const successProps = (success?.properties ?? {}) as Record<string, Schema>;
    if (!success || (successProps.code as Schema | undefined)?.const !== 0) {
      throw new Error(`${path}: the 200 answer is not oneOf [success (code 0), refusals…]`);
    }
    const refusals = branches.slice(1).map((b) => typeOf(b));
    for (const r of refusals) used.add(r);
    const data = successProps.data ?? {};
    const list = data.type === 'array' && 'count' in successProps;
    operations.push({ method, P, path, op, list, data, refusals });
  }
  operations.sort((a, b) => a.method.localeCompare(b.method));

  for (const name of [...used].sort()) {
    const s = doc.components.schemas[name];
    if (!s) throw new Error(`components.schemas.${name} is missing`);
    out.push(declare(name, s, typeof s.description === 'string' ? s.description : undefined));
  }

  for (const { P, path, op, list, data } of operations) {
    out.push(`// ${path}: ${comment(op.summary ?? op.operationId)}`, '');
    out.push(declare(`${P}Body`, jsonSchema(op.requestBody?.content), `The body of ${path}.`));
    if (list) {
      out.push(declare(`${P}Item`, data.items as Schema, `One row of ${path}'s data.`));
    } else {
      out.push(declare(`${P}Data`, data, `The data of ${path}'s success.`));
    }
    const dataType = list ? `${P}Item[]` : `${P}Data`;
    out.push(
      `/** A success of ${path}. */`,
      `export interface ${P}Success {`,
      '  code: 0;',
      '  msg: string;',
      `  data: ${dataType};`,
      ...(list ? ['  /** Rows before paging. */', '  count: number;'] : []),
      '}',
      '',
    );
  }

  out.push(
    '/** Each integration call: its path, whether it is a list call, and its summary. */',
    'export const OPERATIONS = {',
    ...operations.map(
      ({ method, path, op, list }) =>
        `  ${method}: { operationId: ${JSON.stringify(op.operationId)}, path: ${JSON.stringify(path)}, list: ${list}, summary: ${JSON.stringify(op.summary ?? '')} },`,
    ),
    '} as const;',
    '',
    '/** The types of each call: what it takes, what a success answers, what a refusal answers. */',
    'export interface Operations {',
    ...operations.map(
      ({ method, P, refusals }) =>
        `  ${method}: { body: ${P}Body; success: ${P}Success; refusal: ${refusals.join(' | ') || 'never'} };`,
    ),
    '}',
    '',
  );
  return out.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as OpenApi;
  writeFileSync(GENERATED, clientSource(doc));
  console.log(`wrote ${GENERATED}`);
}
