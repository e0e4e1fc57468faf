import { NOTICE_SOCKET_PATH } from '@esl/contract';
import type {} from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sameOrigin } from '../infra/web/headers';
import { resolveCaller } from './callers';
import type { Services } from './context';

export const HEARTBEAT = 'heart beat';
/** Close code for a socket whose token is missing, expired or revoked (4000–4999: application). */
export const CLOSE_SESSION_EXPIRED = 4800;

/**
 * WebSocket /sys/eslnotice?token=…: answers the console's 'heart beat' with 'heart beat' and
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
    const token = request.query.token;
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
