import { NOTICE_SOCKET_PATH, TOKEN_COOKIE } from '@esl/contract';
import type {} from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sameOrigin } from '../infra/web/headers';
import { resolveCaller } from './callers';
import type { Services } from './context';

export const HEARTBEAT = 'heart beat';
/** Close code for a socket whose token is missing, expired or revoked (4000–4999: application). */
export const CLOSE_SESSION_EXPIRED = 4800;

/**
 * The session token of the console's ESL-Token cookie, which the browser sends with the socket's
 * upgrade request (same origin): the token stays out of the URL, where proxies and access logs
 * would keep it (issue 27 item 10).
 */
export function cookieToken(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === TOKEN_COOKIE) {
      try {
        return decodeURIComponent(part.slice(at + 1).trim()) || undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * WebSocket /sys/eslnotice: the session from the ESL-Token cookie (the console) or `?token=…`
 * (other clients); answers the console's 'heart beat' with 'heart beat' and
 * carries notices. Each heartbeat re-checks the session, so a revoked token loses its socket.
 */
export function registerNoticeSocket(app: FastifyInstance, services: Services): void {
  const checkOrigin = {
    websocket: true,
    // Refused before the upgrade: a page of another site never gets a socket, whatever token it holds.
    preValidation: async (request: FastifyRequest, reply: FastifyReply) => {
      if (!sameOrigin(request, services.config.publicUrl)) return reply.code(403).send('origin not allowed');
    },
  } as const;
  app.get<{ Querystring: { token?: string } }>(NOTICE_SOCKET_PATH, checkOrigin, (socket, request) => {
    const token = request.query.token ?? cookieToken(request.headers.cookie);
    const check = () => resolveCaller(services, token, services.config.now());
    let remove: (() => void) | undefined;
    const refuse = () => socket.close(CLOSE_SESSION_EXPIRED, 'session expired');
    const ready = check().then(
      (caller) => {
        remove = services.notices.add(socket, {
          tenantId: caller.tenantId,
          userId: caller.userId,
          sessionId: caller.sessionId,
        });
        return true;
      },
      () => {
        refuse();
        return false;
      },
    );
    socket.on('message', async (data) => {
      if (!(await ready)) return;
      if (data.toString() !== HEARTBEAT) return;
      try {
        await check();
        socket.send(HEARTBEAT);
      } catch {
        refuse();
      }
    });
    socket.on('close', () => remove?.());
  });
}
