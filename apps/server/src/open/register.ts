import { OPEN_BASE, OPEN_CALLS, type OpenCallDef, type OpenCallName, openPath } from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import type { CallContext, Caller, Services } from '../api/context';
import { invalidField } from '../api/errors';
import { type Authenticator, runCall } from '../api/pipeline';
import { authenticate, type OpenKey } from './auth';
import { type OpenHandlerMap, openHandlers } from './routes';

type LooseHandler = (ctx: CallContext, body: unknown) => Promise<unknown>;

/**
 * The integration API (docs/INTEGRATION.md): one POST route per OPEN_CALLS entry under
 * OPEN_BASE, in a scope of its own whose body parser keeps the raw bytes (the signature covers
 * them exactly as sent), through the console's pipeline (api/pipeline.ts) with the signed key as
 * authenticator: signature → availability → body → handler → the console's envelope; calls that
 * change data leave an operation-log row naming the key.
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
      const call = { ...def, name };
      scope.post(OPEN_BASE + def.path, (request, reply) => runCall(call, handler, keyAuth, services, request, reply));
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

/** The integration API's caller: the signed key, acting as its tenant's administrator. */
const keyAuth: Authenticator<OpenCallDef & { name: OpenCallName }> = {
  async authenticate(ctx) {
    const raw = Buffer.isBuffer(ctx.request.body) ? ctx.request.body : Buffer.alloc(0);
    ctx.caller = callerOf(await authenticate(ctx.services, ctx.request, raw));
    return () => parseJson(raw);
  },
  // A refused signature names no one, so it is not logged.
  logEntry: (ctx, call, body) =>
    ctx.caller ? { userId: null, call: openPath(call.name), target: storeOf(body) } : null,
  fieldKeys: true,
};

/** The store code a refused body named, shown as it is. */
function storeOf(body: unknown): string {
  const store = body && typeof body === 'object' ? (body as Record<string, unknown>).store : undefined;
  return typeof store === 'string' ? store.slice(0, 200) : '';
}
