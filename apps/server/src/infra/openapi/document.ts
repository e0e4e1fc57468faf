import {
  API_BASE,
  CALLS,
  type CallDef,
  ERROR_MESSAGES,
  ImportOptions,
  OPEN_BASE,
  OPEN_CALLS,
  OPEN_HEADERS,
  OPEN_WINDOW_MS,
  PRODUCT_TITLE,
  type RefusalWithData,
} from '@esl/contract';
import { z } from 'zod';
import { VERSION } from '../version';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

export function bodySchema(def: Pick<CallDef, 'body'>): JsonSchema {
  return schemaOf(def.body, 'input');
}

/** The envelope around the call's data: `{ code, msg, data }`, plus `count` for list calls. */
export function answerSchema(def: Pick<CallDef, 'data' | 'list'>): JsonSchema {
  const data = schemaOf(def.data, 'output');
  const properties: Record<string, JsonSchema> = {
    code: { type: 'integer', description: '0 on success; see the error codes in info.description' },
    msg: { type: 'string' },
    data: def.list ? { type: 'array', items: data } : data,
  };
  if (def.list) properties.count = { type: 'integer', description: 'Rows before paging' };
  return { type: 'object', properties, required: Object.keys(properties) };
}

function requestBody(def: CallDef) {
  const json = { schema: bodySchema(def) };
  if (def.path === '/user/avatar' || def.path === '/mgr/product/import') {
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] },
        },
      },
    };
  }
  if (def.path === '/mgr/product/importcheck' || def.path === '/mgr/product/importmapped') {
    const options = { ...schemaOf(ImportOptions, 'input'), description: 'JSON text, sent before the file' };
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { options, file: { type: 'string', format: 'binary' } },
            required: ['file'],
          },
        },
      },
    };
  }
  const content: Record<string, unknown> = { 'application/json': json };
  if (def.path === '/user/setcurrshop') content['application/x-www-form-urlencoded'] = json;
  return { required: false, content };
}

/**
 * Every answer under HTTP 200: the call's envelope with code 0, or a refusal (`data: null`, the
 * shared `Refusal` schema; or the call's own refusal carrying data, e.g. `ImportRefusal`), so a
 * validating client accepts both (issue 26 item 10).
 */
function envelopeOf(def: Pick<CallDef, 'data' | 'list' | 'refusal'>): JsonSchema {
  const success = answerSchema(def);
  const properties = success.properties as Record<string, JsonSchema>;
  return {
    oneOf: [
      { ...success, properties: { ...properties, code: { const: 0 } } },
      { $ref: '#/components/schemas/Refusal' },
      ...(def.refusal ? [{ $ref: `#/components/schemas/${def.refusal.name}` }] : []),
    ],
  };
}

/** The schema of a refusal that carries data: its code, and its data instead of null. */
function refusalWithData(refusal: RefusalWithData): JsonSchema {
  return {
    type: 'object',
    description: refusal.description,
    properties: {
      code: { const: refusal.code },
      msg: { type: 'string' },
      data: schemaOf(refusal.data, 'output'),
    },
    required: ['code', 'msg', 'data'],
  };
}

const REFUSAL: JsonSchema = {
  type: 'object',
  description: "A refused call: a code other than 0 (info.description lists them), a message in the caller's language",
  properties: {
    code: { type: 'integer', minimum: 1 },
    msg: { type: 'string' },
    data: { type: 'null' },
  },
  required: ['code', 'msg', 'data'],
};

/** HTTP 429: a limit reached (sign-ins per address, signed calls per key); the envelope beside Retry-After. */
const TOO_MANY = {
  description: 'Too many requests: wait the seconds Retry-After says (the envelope says it too, code 1012 or 1020)',
  headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 0 } } },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Refusal' } } },
};

/** HTTP 500: a crash; the envelope with code 1500 and a generic message, nothing of the cause. */
const CRASH = {
  description: 'A crash: a generic message only (the cause is in the server log and the system log)',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Refusal' } } },
};

/** The envelope; a call answering a file answers the file on success and the envelope on a refusal. */
function answer(def: CallDef) {
  const envelope = { 'application/json': { schema: envelopeOf(def) } };
  if (!def.file) return { description: 'The envelope', content: envelope };
  return {
    description: `The file (${def.file.filename}, as an attachment) on success; the envelope on a refusal`,
    content: { [def.file.type]: { schema: { type: 'string', format: 'binary' } }, ...envelope },
  };
}

function errorCodes(): string {
  return Object.entries(ERROR_MESSAGES)
    .map(([code, m]) => `- \`${code}\`: ${m.en}`)
    .join('\n');
}

let cached: JsonSchema | undefined;

/** OpenAPI 3.1 generated from the contract's CALLS, built once per process. */
export function openApiDocument(): JsonSchema {
  if (cached) return cached;
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, JsonSchema> = { Refusal: REFUSAL };
  for (const [name, def] of Object.entries(CALLS) as [string, CallDef][]) {
    if (def.refusal) schemas[def.refusal.name] = refusalWithData(def.refusal);
    const area = def.path.split('/')[1] ?? 'api';
    paths[API_BASE + def.path] = {
      post: {
        operationId: name,
        summary: def.summary,
        tags: [area],
        description: [
          `Access: \`${def.access}\`.`,
          def.ready ? '' : 'Not available yet: answers code 1007.',
          def.changes ? 'Writes an operation-log row.' : '',
        ]
          .filter(Boolean)
          .join(' '),
        'x-access': def.access,
        'x-ready': def.ready,
        security: def.access === 'public' ? [] : [{ token: [] }, { bearer: [] }],
        requestBody: requestBody(def),
        responses: {
          '200': answer(def),
          ...(def.path === '/user/login' ? { '429': TOO_MANY } : {}),
          '500': CRASH,
        },
      },
    };
  }
  for (const [name, def] of Object.entries(OPEN_CALLS)) {
    paths[OPEN_BASE + def.path] = {
      post: {
        operationId: `open.${name}`,
        summary: def.summary,
        tags: ['open'],
        description: [
          "Integration API: signed with the tenant's API key pair (docs/INTEGRATION.md), all four headers required.",
          def.ready ? '' : 'Not available yet: answers code 1007.',
          def.changes ? 'Writes an operation-log row naming the key.' : '',
        ]
          .filter(Boolean)
          .join(' '),
        'x-access': def.access,
        'x-ready': def.ready,
        security: [{ openKey: [], openTimestamp: [], openNonce: [], openSignature: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: bodySchema(def) } } },
        responses: {
          '200': { description: 'The envelope', content: { 'application/json': { schema: envelopeOf(def) } } },
          '429': TOO_MANY,
          '500': CRASH,
        },
      },
    };
  }
  const minutes = OPEN_WINDOW_MS / 60_000;
  cached = {
    openapi: '3.1.0',
    info: {
      title: `${PRODUCT_TITLE} API`,
      version: VERSION,
      description: `Every call is POST with a JSON body and answers HTTP 200 with an envelope.\n\nCodes:\n${errorCodes()}`,
    },
    servers: [{ url: '/' }],
    components: {
      schemas,
      securitySchemes: {
        token: { type: 'apiKey', in: 'header', name: 'token' },
        bearer: { type: 'http', scheme: 'bearer' },
        openKey: {
          type: 'apiKey',
          in: 'header',
          name: OPEN_HEADERS.key,
          description: "Integration calls: the tenant's ck (renewing the key pair stops the old one at once)",
        },
        openTimestamp: {
          type: 'apiKey',
          in: 'header',
          name: OPEN_HEADERS.timestamp,
          description: `Unix milliseconds, within ±${minutes} minutes of the server's clock`,
        },
        openNonce: {
          type: 'apiKey',
          in: 'header',
          name: OPEN_HEADERS.nonce,
          description: '16–64 of A–Z a–z 0–9 _ -, never used twice with the same key',
        },
        openSignature: {
          type: 'apiKey',
          in: 'header',
          name: OPEN_HEADERS.signature,
          description:
            'hex HMAC-SHA256 keyed with sk over METHOD\\nPATH\\nTIMESTAMP\\nNONCE\\nSHA256(body) (docs/INTEGRATION.md)',
        },
      },
    },
    paths,
  };
  return cached;
}
