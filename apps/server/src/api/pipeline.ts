import { type Envelope, ErrorCode, encodeTarget, pickLanguage } from '@esl/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import { insertOpLog } from '../infra/audit/repository';
import type { CallContext, Services } from './context';
import { AppError, invalidField, messageOf, notAvailable } from './errors';
import type { FileReply, ListResult } from './handlers';
import { nulField, validationError } from './validation';

/*
 * The one request pipeline every API call runs through, the console's (`/api/...`, a session
 * token: api/register.ts) and the integration API's (`/open/v1/...`, a signed key:
 * open/register.ts): authenticate → availability → body → handler → envelope (or a file) →
 * operation log and the end of the tenant's cached reads. What differs is the Authenticator.
 */

/** What the pipeline needs of a call's definition (the contract's CallDef and OpenCallDef both have it). */
export interface PipelineCall {
  body: ZodType;
  ready: boolean;
  list?: boolean;
  changes?: boolean;
  /** A changing call that, with this body, only reads: not logged. */
  readsOnly?: (body: Record<string, unknown>) => boolean;
  file?: { type: string; filename: string };
}

/** Who is calling, and what the operation log says of them. */
export interface Authenticator<C extends PipelineCall = PipelineCall> {
  /**
   * Sets `ctx.caller` (a public call may leave it null) or throws an AppError to refuse; answers
   * how to read the body the handler validates (read only once the call is known to be available).
   */
  authenticate(ctx: CallContext, call: C): Promise<() => unknown>;
  /** The operation-log row's user id, call and target; null: nothing to log (nobody to name). */
  logEntry(ctx: CallContext, call: C, body: unknown): { userId: number | null; call: string; target: string } | null;
  /** Messages for integrators: a refused field is named by its key path, not its label. */
  readonly fieldKeys?: boolean;
}

type LooseHandler = (ctx: CallContext, body: unknown) => Promise<unknown>;

export async function runCall<C extends PipelineCall>(
  call: C,
  handler: LooseHandler | undefined,
  auth: Authenticator<C>,
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Envelope<unknown> | FileReply['body']> {
  const lang = pickLanguage(request.headers['accept-language']);
  const now = services.config.now();
  const ctx: CallContext = { services, lang, ip: request.ip, request, caller: null, now, target: null };
  let body: unknown = {};
  // Decided before anything can refuse the call (a refused read-only call is not logged either).
  const early = isObject(request.body) ? (request.body as Record<string, unknown>) : {};
  const logs = call.changes === true && !call.readsOnly?.(early);
  let envelope: Envelope<unknown>;
  let file: FileReply | undefined;
  try {
    const read = await auth.authenticate(ctx, call);
    if (!call.ready || !handler) throw notAvailable();
    body = read();
    const parsed = call.body.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error, body);
    const nul = nulField(parsed.data);
    if (nul) throw invalidField(nul, 'nul');
    const result = await handler(ctx, parsed.data);
    const msg = messageOf(0, lang);
    if (call.file) {
      file = result as FileReply;
      envelope = { code: 0, msg, data: null };
    } else if (call.list) {
      const { rows, count } = result as ListResult<unknown>;
      envelope = { code: 0, msg, data: rows, count };
    } else {
      envelope = { code: 0, msg, data: result };
    }
  } catch (err) {
    if (!(err instanceof AppError)) {
      if (logs)
        await recordChange(
          ctx,
          auth.logEntry(ctx, call, body),
          ErrorCode.INTERNAL,
          messageOf(ErrorCode.INTERNAL, lang),
        );
      throw err;
    }
    envelope = { code: err.code, msg: messageOf(err.code, lang, err.vars, auth.fieldKeys), data: err.data };
    if (call.list) envelope.count = 0;
    if (err.retryAfter !== undefined) reply.code(429).header('retry-after', String(err.retryAfter));
  }
  if (logs) await recordChange(ctx, auth.logEntry(ctx, call, body), envelope.code, envelope.msg);
  if (call.file && file) return sendFile(reply, call.file, file);
  return envelope;
}

/** A file answer: its media type, a download name, and the bytes (a stream is piped as it is written). */
function sendFile(reply: FastifyReply, spec: NonNullable<PipelineCall['file']>, file: FileReply): FileReply['body'] {
  const name = (file.filename ?? spec.filename).replace(/["\\\r\n]/g, '_');
  reply.type(spec.type).header('content-disposition', `attachment; filename="${name}"`);
  return file.body;
}

/**
 * After a call that may have changed data: its operation-log row (refusals before anyone is known
 * are not logged: there is no one to name), then the end of the tenant's cached reads, here and in
 * every other process (cache/shared.ts). The platform operator's calls touch other tenants: they
 * end all. Refused calls change nothing but are rare; announcing them too keeps the rule simple.
 */
async function recordChange(
  ctx: CallContext,
  entry: { userId: number | null; call: string; target: string } | null,
  code: number,
  msg: string,
): Promise<void> {
  const caller = ctx.caller;
  if (!caller || !entry) return;
  await insertOpLog(ctx.services.db, {
    tenant_id: caller.tenantId,
    store_id: caller.storeId,
    user_id: entry.userId,
    username: caller.username,
    call: entry.call,
    // A refused NUL must not stop the refusal from being logged (PostgreSQL cannot store it).
    target: (ctx.target ? encodeTarget(ctx.target) : entry.target).replaceAll('\u0000', ''),
    code,
    msg,
    ip: ctx.ip,
    time: ctx.now,
  });
  try {
    await ctx.services.cache.changed(caller.tenantId);
  } catch (err) {
    // The change itself is done; other processes' entries still end within their time limit.
    ctx.request.log.warn(`cache invalidation not announced: ${(err as Error).message}`);
  }
}

export const isObject = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
