import {
  type Envelope,
  ErrorCode,
  encodeTarget,
  OPEN_BASE,
  OPEN_CALLS,
  type OpenCallDef,
  type OpenCallName,
  openPath,
  pickLanguage,
} from '@esl/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CallContext, Caller, Services } from '../api/context';
import { AppError, invalidField, messageOf, notAvailable } from '../api/errors';
import type { ListResult } from '../api/handlers';
import { nulField, validationError } from '../api/validation';
import { insertOpLog } from '../infra/audit/repository';
import { authenticate, type OpenKey } from './auth';
import { type OpenHandlerMap, openHandlers } from './handlers';

type LooseHandler = (ctx: CallContext, body: unknown) => Promise<unknown>;

/**
 * The integration API (docs/INTEGRATION.md): one POST route per OPEN_CALLS entry under
 * OPEN_BASE, in a scope of its own whose body parser keeps the raw bytes (the signature covers
 * them exactly as sent). Signature → availability → body → handler → the console's envelope;
 * calls that change data leave an operation-log row naming the key.
 */
export async function registerIntegrationCalls(
  app: FastifyInstance,
  services: Services,
  handlers: OpenHandlerMap = openHandlers,
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    for (const name of Object.keys(OPEN_CALLS) as OpenCallName[]) {
      const def: OpenCallDef = OPEN_CALLS[name];
      const handler = handlers[name] as LooseHandler | undefined;
      scope.post(OPEN_BASE + def.path, (request, reply) => runOpenCall(name, def, handler, services, request, reply));
    }
  });
}

/** The key acting as its tenant's administrator, with no user behind it (user id 0: no users row has it). */
function callerOf(key: OpenKey): Caller {
  return {
    sessionId: '',
    userId: 0,
    username: `api:${key.ck}`,
    name: `API ${key.ck}`,
    introduction: '',
    avatarKey: null,
    roles: ['admin'],
    heldRoles: ['admin'],
    actingRole: null,
    tenantId: key.tenantId,
    tenantName: key.tenantName,
    tenantCompany: key.tenantCompany,
    storeId: null,
  };
}

function parseJson(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalidField('body', 'body');
  }
}

async function runOpenCall(
  name: OpenCallName,
  def: OpenCallDef,
  handler: LooseHandler | undefined,
  services: Services,
  request: FastifyRequest,
  _reply: FastifyReply,
): Promise<Envelope<unknown>> {
  const lang = pickLanguage(request.headers['accept-language']);
  const now = services.config.now();
  const ctx: CallContext = { services, lang, ip: request.ip, request, caller: null, now, target: null };
  const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  let envelope: Envelope<unknown>;
  let body: unknown = {};
  try {
    ctx.caller = callerOf(await authenticate(services, request, raw));
    if (!def.ready || !handler) throw notAvailable();
    body = parseJson(raw);
    const parsed = def.body.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error, body);
    const nul = nulField(parsed.data);
    if (nul) throw invalidField(nul, 'nul');
    const result = await handler(ctx, parsed.data);
    const msg = messageOf(0, lang);
    if (def.list) {
      const { rows, count } = result as ListResult<unknown>;
      envelope = { code: 0, msg, data: rows, count };
    } else {
      envelope = { code: 0, msg, data: result };
    }
  } catch (err) {
    if (!(err instanceof AppError)) {
      if (def.changes) await record(ctx, name, body, ErrorCode.INTERNAL, messageOf(ErrorCode.INTERNAL, lang));
      throw err;
    }
    envelope = { code: err.code, msg: messageOf(err.code, lang, err.vars, true), data: err.data };
    if (def.list) envelope.count = 0;
  }
  if (def.changes) await record(ctx, name, body, envelope.code, envelope.msg);
  return envelope;
}

/**
 * The operation-log row of a changing call, once the key is known (a refused signature names no
 * one, so it is not logged), and the end of the tenant's cached reads, as for console calls.
 */
async function record(ctx: CallContext, name: OpenCallName, body: unknown, code: number, msg: string) {
  const caller = ctx.caller;
  if (!caller || caller.tenantId === null) return;
  await insertOpLog(ctx.services.db, {
    tenant_id: caller.tenantId,
    store_id: caller.storeId,
    user_id: null,
    username: caller.username,
    call: openPath(name),
    target: (ctx.target ? encodeTarget(ctx.target) : storeOf(body)).replaceAll('\u0000', ''),
    code,
    msg,
    ip: ctx.ip,
    time: ctx.now,
  });
  try {
    await ctx.services.cache.changed(caller.tenantId);
  } catch (err) {
    ctx.request.log.warn(`cache invalidation not announced: ${(err as Error).message}`);
  }
}

/** The store code a refused body named, shown as it is. */
function storeOf(body: unknown): string {
  const store = body && typeof body === 'object' ? (body as Record<string, unknown>).store : undefined;
  return typeof store === 'string' ? store.slice(0, 200) : '';
}
