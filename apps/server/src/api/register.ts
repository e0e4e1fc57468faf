import { API_BASE, CALLS, type CallDef, type CallName, ErrorCode, hasPermission, pickLanguage } from '@esl/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from './callers';
import type { CallContext, Services } from './context';
import { forbidden, messageOf } from './errors';
import type { HandlerMap } from './handlers';
import { type Authenticator, runCall } from './pipeline';
import { tokenOf } from './token';

type LooseHandler = (ctx: CallContext, body: unknown) => Promise<unknown>;

/**
 * One POST route per contract call, through the one pipeline (pipeline.ts) with the session as
 * authenticator: session → permission → availability → body validation → handler → envelope (or,
 * for a call declaring a file answer, the file). Calls that change data leave one operation-log
 * row, refused ones included.
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
    const upload = def.upload;
    app.post(
      API_BASE + def.path,
      {
        config: routeConfig[name] ?? {},
        ...(upload ? { onRequest: (request, reply) => refuseOversizeUpload(upload, request, reply) } : {}),
      },
      (request, reply) => runCall(def, handler, sessionAuth, services, request, reply),
    );
  }
  return missing;
}

/** What a multipart body may hold beside its files: boundaries, part headers, an options field. */
export const MULTIPART_SLACK_BYTES = 64 * 1024;

/**
 * An upload whose Content-Length already says it is over the call's limit is answered at once,
 * before a byte of it is read or parsed (1014, the limit in MB), and the connection is closed
 * after the answer so the rest is not read either: a 65 MB body costs the server nothing but the
 * answer (issue 25 item 5). A body sent without a length is held to the limit by the multipart
 * reader as it arrives, as before.
 */
export async function refuseOversizeUpload(limit: number, request: FastifyRequest, reply: FastifyReply) {
  const announced = Number(request.headers['content-length']);
  if (!Number.isFinite(announced) || announced <= limit + MULTIPART_SLACK_BYTES) return;
  const lang = pickLanguage(request.headers['accept-language']);
  const detail = `${Math.round((limit / 1024 / 1024) * 10) / 10} MB`;
  reply.header('connection', 'close');
  await reply.send({ code: ErrorCode.TOO_LARGE, msg: messageOf(ErrorCode.TOO_LARGE, lang, { detail }), data: null });
}

/** The console's caller: the session token's user, with the permission the call needs. */
export const sessionAuth: Authenticator<CallDef> = {
  async authenticate(ctx, def) {
    const { services, request, now } = ctx;
    if (def.access !== 'public') ctx.caller = await callerOf(services, tokenOf(request), now);
    if (ctx.caller && def.access !== 'public' && def.access !== 'session') {
      if (!hasPermission(ctx.caller.roles, def.access)) throw forbidden();
    }
    // No body at all is an empty object (the console posts without one); JSON null is not.
    return () => (request.body === undefined ? {} : request.body);
  },
  logEntry: (ctx, def) =>
    ctx.caller ? { userId: ctx.caller.userId, call: def.path, target: targetOf(ctx.request.body).slice(0, 200) } : null,
};

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
