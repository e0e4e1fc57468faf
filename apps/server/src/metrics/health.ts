import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Delivery } from '../delivery/wiring';
import { type Db, ping } from '../infra/db/database';
import { pendingMigrations } from '../infra/db/migrate';

/*
 * Probes for load balancers and orchestrators (docs/DEPLOY.md, "Health probes"). /healthz and
 * /livez: the process answers. /readyz: it should be sent traffic — the database answers, every
 * migration of this code has run, the station broker is connected (when delivery is on) and the
 * server is not shutting down. Each answers JSON, never the console's history fallback, and is
 * open to anyone: the reasons name no host, address or error text (those go to the process log).
 */

export const HEALTH_PATHS = ['/healthz', '/livez'] as const;
export const READY_PATH = '/readyz';

export interface HealthOptions {
  database: Db;
  delivery: () => Delivery | null;
  log: (err: unknown, what: string) => void;
}

export interface Health {
  /** From SIGTERM on: /readyz answers 503 so the balancer stops sending traffic while we drain. */
  startDraining(): void;
  readonly draining: boolean;
  /** null: ready; otherwise why not, in a few words. */
  unready(): Promise<string | null>;
}

export function createHealth(o: HealthOptions): Health {
  let draining = false;
  return {
    startDraining() {
      draining = true;
    },
    get draining() {
      return draining;
    },
    async unready() {
      if (draining) return 'draining';
      let pending: string[];
      try {
        await ping(o.database.db);
        pending = await pendingMigrations(o.database);
      } catch (err) {
        o.log(err, 'the database');
        return 'database unreachable';
      }
      if (pending.length) return `migrations pending: ${pending.length}`;
      const delivery = o.delivery();
      if (delivery && !delivery.port.connected()) return 'broker not connected';
      return null;
    },
  };
}

const probe = (reply: FastifyReply, status: number, body: object) =>
  reply.code(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);

export function registerHealth(app: FastifyInstance, health: Health): void {
  for (const path of HEALTH_PATHS) app.get(path, async (_request, reply) => probe(reply, 200, { status: 'ok' }));
  app.get(READY_PATH, async (_request, reply) => {
    const reason = await health.unready();
    return reason === null
      ? probe(reply, 200, { status: 'ready' })
      : probe(reply, 503, { status: 'unavailable', reason });
  });
}
