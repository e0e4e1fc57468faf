import {
  API_BASE,
  CALLS,
  type CallDef,
  type CallName,
  type Envelope,
  encodeTarget,
  hasPermission,
  pickLanguage,
} from '@esl/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { insertOpLog } from '../infra/audit/repository';
import { callerOf } from './callers';
import type { CallContext, Services } from './context';
import { AppError, forbidden, invalidField, messageOf, notAvailable } from './errors';
import type { FileReply, HandlerMap, ListResult } from './handlers';
import { tokenOf } from './token';
import { nulField, validationError } from './validation';

type LooseHandler = (ctx: CallContext, body: unknown) => Promise<unknown>;

/**
 * One POST route per contract call: session → permission → availability → body validation →
 * handler → envelope (or, for a call declaring a file answer, the file). Calls that change data
 * leave one operation-log row, refused ones included.
 */
export function registerCalls(
  app: FastifyInstance,
  services: Services,
  handlers: HandlerMap,
  routeConfig: Partial<Record<CallName, object>> = {},
): CallName[] {
  const missing: CallName[] = [];
  for (const name of Object.keys(CALLS) as CallName[]) {
    const def: CallDef = CALLS[name];
    const handler = handlers[name] as LooseHandler | undefined;
    // A ready call without a handler is a bug the API tests catch; meanwhile it answers 1007
    // rather than stopping the server every other engineer is working against.
    if (def.ready && !handler) missing.push(name);
    app.post(API_BASE + def.path, { config: routeConfig[name] ?? {} }, (request, reply) =>
      runCall(def, handler, services, request, reply),
    );
  }
  return missing;
}

async function runCall(
  def: CallDef,
  handler: LooseHandler | undefined,
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Envelope<unknown> | FileReply['body']> {
  const lang = pickLanguage(request.headers['accept-language']);
  const now = services.config.now();
  const ctx: CallContext = { services, lang, ip: request.ip, request, caller: null, now, target: null };
  // No body at all is an empty object (the console posts without one); JSON null is not.
  const raw = request.body === undefined ? {} : request.body;
  const body = (isObject(raw) ? raw : {}) as Record<string, unknown>;
  const logs = def.changes && !def.readsOnly?.(body);
  let envelope: Envelope<unknown>;
  let file: FileReply | undefined;
  try {
    if (def.access !== 'public') ctx.caller = await callerOf(services, tokenOf(request), now);
    if (ctx.caller && def.access !== 'public' && def.access !== 'session') {
      if (!hasPermission(ctx.caller.roles, def.access)) throw forbidden();
    }
    if (!def.ready || !handler) throw notAvailable();
    const parsed = def.body.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error, raw);
    const nul = nulField(parsed.data);
    if (nul) throw invalidField(nul, 'nul');
    const result = await handler(ctx, parsed.data);
    const msg = messageOf(0, lang);
    if (def.file) {
      file = result as FileReply;
      envelope = { code: 0, msg, data: null };
    } else if (def.list) {
      const { rows, count } = result as ListResult<unknown>;
      envelope = { code: 0, msg, data: rows, count };
    } else {
      envelope = { code: 0, msg, data: result };
    }
  } catch (err) {
    if (!(err instanceof AppError)) {
      if (logs) await recordChange(ctx, def, 1500, messageOf(1500, lang));
      throw err;
    }
    envelope = { code: err.code, msg: messageOf(err.code, lang, err.vars), data: err.data };
    if (def.list) envelope.count = 0;
  }
  if (logs) await recordChange(ctx, def, envelope.code, envelope.msg);
  if (def.file && file) return sendFile(reply, def.file, file);
  return envelope;
}

/** A file answer: its media type, a download name, and the bytes (a stream is piped as it is written). */
function sendFile(reply: FastifyReply, spec: NonNullable<CallDef['file']>, file: FileReply): FileReply['body'] {
  const name = (file.filename ?? spec.filename).replace(/["\\\r\n]/g, '_');
  reply.type(spec.type).header('content-disposition', `attachment; filename="${name}"`);
  return file.body;
}

/**
 * After any call that may have changed data, cached reads of its tenant end, here and in every
 * other process (cache/shared.ts). The platform operator's calls touch other tenants: they end all.
 * Refused calls change nothing but are rare; announcing them too keeps the rule simple.
 */
async function announceChange(ctx: CallContext): Promise<void> {
  // Without a session nothing was changed (the call was refused before its handler).
  if (!ctx.caller) return;
  try {
    await ctx.services.cache.changed(ctx.caller.tenantId);
  } catch (err) {
    // The change itself is done; other processes' entries still end within their time limit.
    ctx.request.log.warn(`cache invalidation not announced: ${(err as Error).message}`);
  }
}

/** After a call that may have changed data: its operation-log row, then the cache's invalidation. */
async function recordChange(ctx: CallContext, def: CallDef, code: number, msg: string): Promise<void> {
  await logOperation(ctx, def, code, msg);
  await announceChange(ctx);
}

/** Refusals before a session is known (code 800) are not logged: there is no one to name. */
async function logOperation(ctx: CallContext, def: CallDef, code: number, msg: string): Promise<void> {
  const caller = ctx.caller;
  if (!caller) return;
  await insertOpLog(ctx.services.db, {
    tenant_id: caller.tenantId,
    store_id: caller.storeId,
    user_id: caller.userId,
    username: caller.username,
    call: def.path,
    // A refused NUL must not stop the refusal from being logged (PostgreSQL cannot store it).
    target: (ctx.target ? encodeTarget(ctx.target) : targetOf(ctx.request.body).slice(0, 200)).replaceAll('\u0000', ''),
    code,
    msg,
    ip: ctx.ip,
    time: ctx.now,
  });
}

/**
 * What the raw body names when the handler named no target (the call was refused before it
 * could look): shown as it is, in no language.
 */
function targetOf(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const b = body as Record<string, unknown>;
  if (Array.isArray(b.ids)) return `#${b.ids.slice(0, 20).map(String).join(',')}`;
  for (const key of ['id', 'curshop', 'username', 'account', 'code', 'name']) {
    const v = b[key];
    if (typeof v === 'string' || typeof v === 'number') return key === 'id' ? `#${v}` : String(v);
  }
  return '';
}

const isObject = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
