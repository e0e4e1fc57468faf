import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { openApiDocument } from '../infra/openapi/document';

// Issue 26 item 10: every answer a server test receives from the console API (/api) or the
// integration API (/open/v1) is checked against the OpenAPI document integrators get — the one
// GET /api/openapi.json serves and docs/openapi.json holds (document.test.ts keeps them equal).
// A test whose answer breaks the document fails at the call, with the path and what is wrong.

type Json = Record<string, unknown>;
interface Media {
  schema?: Json;
}
interface Response {
  content?: Record<string, Media>;
  headers?: Record<string, { schema?: Json }>;
}
interface Operation {
  operationId: string;
  responses: Record<string, Response>;
}

interface Doc {
  paths: Record<string, Record<string, Operation>>;
}
const DOC_ID = 'openapi.json';

let doc: Doc | undefined;
/** The served document as an integrator parses it (JSON), built once per worker on the first check (~1 s). */
function documentOf(): Doc {
  doc ??= JSON.parse(JSON.stringify(openApiDocument())) as Doc;
  return doc;
}

let ajv: Ajv2020 | undefined;
function validator(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false });
  addFormats(ajv);
  // A file answer is bytes, never JSON; nothing to validate.
  ajv.addFormat('binary', true);
  // Schemas point into the document (#/components/schemas/…): add it whole, compile fragments.
  ajv.addSchema(documentOf(), DOC_ID);
  return ajv;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/**
 * One compiled function per (path, status, media type, branch), for the whole worker (test files
 * share a worker's modules): compiling costs ~10–30 ms, checking an answer well under 1 ms.
 */
const compiled = new Map<string, ValidateFunction>();
function compiledAt(...parts: string[]): ValidateFunction {
  const ref = `${DOC_ID}#/${pointer(...parts)}`;
  let fn = compiled.get(ref);
  if (!fn) {
    fn = validator().compile({ $ref: ref });
    compiled.set(ref, fn);
  }
  return fn;
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}${detail(e.params)}`).join('; ');
}

function detail(params: Record<string, unknown>): string {
  // 'must have required property' names it already; the others say what they expected.
  const shown = Object.entries(params).filter(([k]) => k !== 'missingProperty');
  return shown.length ? ` (${shown.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')})` : '';
}

/** A branch of the document, through its $ref (#/components/schemas/…). */
function resolve(schema: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let at: unknown = documentOf();
  for (const part of ref.slice(2).split('/')) at = (at as Json)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  return at as Json;
}

/**
 * What is wrong with a JSON body against a schema of the document, or null. Under `oneOf` (the
 * envelope: a success, a refusal, a refusal with data) the envelope's code says which branch was
 * meant: the one whose `code` is that constant, else the one without a constant (Refusal).
 */
function jsonProblem(parts: string[], schema: Json, body: unknown): string | null {
  const whole = compiledAt(...parts);
  if (whole(body)) return null;
  const branches = Array.isArray(schema.oneOf) ? (schema.oneOf as Json[]) : [];
  if (!branches.length) return describeErrors(whole.errors);
  const code = (body as { code?: unknown } | null)?.code;
  const constOf = (branch: Json) => ((resolve(branch).properties as Json | undefined)?.code as Json | undefined)?.const;
  let index = branches.findIndex((b) => constOf(b) !== undefined && constOf(b) === code);
  if (index < 0) index = branches.findIndex((b) => constOf(b) === undefined);
  if (index < 0) return describeErrors(whole.errors);
  const fn = compiledAt(...parts, 'oneOf', String(index));
  const name = typeof branches[index]?.$ref === 'string' ? String(branches[index]?.$ref).split('/').pop() : 'success';
  if (fn(body)) return `matches more than one of oneOf (${describeErrors(whole.errors)})`;
  return `as ${name} (oneOf[${index}]): ${describeErrors(fn.errors)}`;
}

export interface Answer {
  method: string;
  /** The request URL: path and query. */
  url: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The raw body. */
  payload: string;
}

/** Does the answer follow the document? null when it does or when it is not an operation of it. */
export function answerProblem(answer: Answer): string | null {
  const path = answer.url.split('?')[0] ?? '';
  const method = answer.method.toLowerCase();
  const operation = documentOf().paths[path]?.[method];
  if (!operation) return null;
  const where = `${answer.method} ${path} (${operation.operationId}) answered HTTP ${answer.status}`;
  const response = operation.responses[String(answer.status)];
  if (!response) {
    const documented = Object.keys(operation.responses).join(', ');
    return `${where}, which the document does not list (${documented}): ${answer.payload.slice(0, 300)}`;
  }
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const value = answer.headers[name.toLowerCase()];
    if (value === undefined || header.schema?.type !== 'integer') continue;
    if (!/^\d+$/.test(String(value))) return `${where} with header ${name}: ${String(value)}, not an integer`;
  }
  const type = String(answer.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (!response.content) {
    return answer.payload.length ? `${where} with a ${type} body the document does not describe` : null;
  }
  const media = type ? response.content[type] : undefined;
  if (!media) {
    return `${where} as ${type || 'no content type'}; the document lists ${Object.keys(response.content).join(', ')}`;
  }
  if (type !== 'application/json' || !media.schema) return null;
  let body: unknown;
  try {
    body = JSON.parse(answer.payload);
  } catch {
    return `${where} with a body that is not JSON: ${answer.payload.slice(0, 300)}`;
  }
  const parts = ['paths', path, method, 'responses', String(answer.status), 'content', type, 'schema'];
  const problem = jsonProblem(parts, media.schema, body);
  if (!problem) return null;
  return `${where}: ${problem}\nbody: ${answer.payload.slice(0, 600)}`;
}

/** Throws when the answer breaks the document (see answerProblem). */
export function checkAnswer(answer: Answer): void {
  const problem = answerProblem(answer);
  if (problem) throw new Error(`The answer breaks the OpenAPI document: ${problem}`);
}

function fromInject(options: InjectOptions | string, res: LightMyRequestResponse): Answer {
  const opts = typeof options === 'string' ? { url: options } : options;
  const target = opts.url ?? opts.path ?? '/';
  return {
    method: opts.method ?? 'GET',
    url: typeof target === 'string' ? target : (target.pathname ?? '/'),
    status: res.statusCode,
    headers: res.headers,
    payload: res.payload,
  };
}

const checked = new WeakSet<FastifyInstance>();

/**
 * From now on, `app.inject` fails (rejects) when an answer to a documented call breaks the
 * document. Idempotent; the test harness calls it for every app it starts or calls.
 */
export function checkAnswersOf(app: FastifyInstance): FastifyInstance {
  if (checked.has(app)) return app;
  checked.add(app);
  const inject = app.inject.bind(app) as (options: InjectOptions | string) => Promise<LightMyRequestResponse>;
  const wrapped = async (options: InjectOptions | string) => {
    const res = await inject(options);
    checkAnswer(fromInject(options, res));
    return res;
  };
  // Only the promise form: the chained and callback forms are not used by the tests.
  app.inject = ((options?: InjectOptions | string, callback?: unknown) => {
    if (options === undefined || callback !== undefined) {
      throw new Error('the test harness checks answers of app.inject(options) only; pass the options');
    }
    return wrapped(options);
  }) as FastifyInstance['inject'];
  return app;
}
