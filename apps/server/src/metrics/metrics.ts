import { timingSafeEqual } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Delivery } from '../delivery/wiring';
import { deliveryGauges, liveLeases } from '../infra/cluster/repository';
import type { Db } from '../infra/db/database';
import type { FirmwareTaskKind, FirmwareTaskState } from '../infra/db/schema';
import { upgradeCounts } from '../modules/firmware/repository';
import { requestLatency, runtimeRegistry } from './runtime';

/*
 * GET /metrics in the Prometheus text format (docs/DEPLOY.md, "Monitoring"). Counters are this
 * process's own since it started (requests, renders, station messages); gauges read from the
 * database are the whole deployment's (task slots by state, queue depths, stations), so any one
 * server answers them and a dashboard takes them from one (`max by ()`), the counters summed.
 *
 * Protection: with METRICS_TOKEN set, only `Authorization: Bearer <token>`; without it, only
 * callers on the loopback address (a scraper on the same machine). Everyone else gets 404, as if
 * there were no such page.
 */

export const METRICS_PATH = '/metrics';

export interface MetricsOptions {
  database: Db;
  delivery: () => Delivery | null;
  /** Bearer token the scraper sends (METRICS_TOKEN); empty: loopback callers only. */
  token: string;
  /** Extra counters of this process (the notice relay's). */
  extra?: () => Array<{ name: string; help: string; type: 'counter' | 'gauge'; value: number }>;
  now: () => number;
}

const UPGRADE_KINDS: readonly FirmwareTaskKind[] = ['apfw', 'modulefw', 'tagfw'];
const UPGRADE_STATES: readonly FirmwareTaskState[] = [
  'queued',
  'sent',
  'accepted',
  'installing',
  'done',
  'failed',
  'cancelled',
];

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

// request.ip, not the socket's peer: behind a trusted proxy on this machine (TRUST_PROXY) the peer
// is always loopback, and every client would pass.
export function allowed(request: Pick<FastifyRequest, 'headers' | 'ip'>, token: string): boolean {
  if (!token) return LOOPBACK.test(request.ip ?? '');
  const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** One metric family as Prometheus text. */
function family(
  name: string,
  help: string,
  type: 'counter' | 'gauge',
  samples: Array<{ labels?: Record<string, string>; value: number }>,
): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
  for (const s of samples) {
    const labels = s.labels
      ? `{${Object.entries(s.labels)
          .map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
          .join(',')}}`
      : '';
    lines.push(`${name}${labels} ${Number.isFinite(s.value) ? s.value : 0}`);
  }
  return lines.join('\n');
}

export function registerMetrics(app: FastifyInstance, o: MetricsOptions): void {
  const requests = new Map<string, number>();
  const latency = requestLatency(app, METRICS_PATH);
  const runtime = runtimeRegistry();
  app.addHook('onResponse', async (request, reply) => {
    if (request.url === METRICS_PATH) return;
    const key = `${request.method} ${Math.floor(reply.statusCode / 100)}xx`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
  });

  app.get(METRICS_PATH, async (request, reply) => {
    if (!allowed(request, o.token)) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    const db = o.database.db;
    const gauges = await deliveryGauges(db);
    const processes = await liveLeases(db, 'process:', o.now());
    const upgrades = await upgradeCounts(db);
    const delivery = o.delivery();
    const out: string[] = [];
    out.push(
      family(
        'esl_http_requests_total',
        'HTTP requests this process answered, by method and status class.',
        'counter',
        [...requests].map(([k, value]) => {
          const [method = '', code = ''] = k.split(' ');
          return { labels: { method, code }, value };
        }),
      ),
    );
    out.push(
      family(
        'esl_tasks',
        'Delivery task slots by state (all servers: read from the database).',
        'gauge',
        gauges.tasks.map((t) => ({ labels: { state: t.state }, value: t.n })),
      ),
    );
    out.push(
      family('esl_queue_depth', 'Work waiting (all servers): slots queued for a station, callbacks pending.', 'gauge', [
        { labels: { queue: 'dispatch' }, value: gauges.queued },
        { labels: { queue: 'render' }, value: gauges.tasks.find((t) => t.state === 'render')?.n ?? 0 },
        { labels: { queue: 'callbacks' }, value: gauges.callbacksPending },
      ]),
    );
    out.push(
      family(
        'esl_stations',
        'Registered base stations by presence (all servers).',
        'gauge',
        [true, false].map((online) => ({
          labels: { online: String(online) },
          value: gauges.stations.find((s) => s.online === online)?.n ?? 0,
        })),
      ),
    );
    out.push(
      family(
        'esl_firmware_upgrades',
        'Firmware upgrade slots by kind (apfw station, modulefw radio module, tagfw tag) and state (all servers).',
        'gauge',
        // Every pair, zeros included, so a state that empties drops to 0 rather than disappearing.
        UPGRADE_KINDS.flatMap((kind) =>
          UPGRADE_STATES.map((state) => ({
            labels: { kind, state },
            value: upgrades.find((u) => u.kind === kind && u.state === state)?.n ?? 0,
          })),
        ),
      ),
    );
    out.push(
      family('esl_server_processes', 'Server processes alive on this database (their leases).', 'gauge', [
        { value: processes.length },
      ]),
    );
    if (delivery) {
      const c = delivery.tasks.counters;
      const per = (name: string, help: string, value: number) => family(name, help, 'counter', [{ value }]);
      out.push(per('esl_renders_total', 'Labels this process rendered (rate(): the render rate).', c.rendered));
      out.push(
        per('esl_render_reused_total', 'Renders skipped: nothing the picture depends on changed.', c.renderReused),
      );
      out.push(per('esl_render_failed_total', 'Renders that failed.', c.renderFailed));
      out.push(per('esl_jobs_sent_total', 'Jobs this process sent to stations.', c.jobsSent));
      out.push(per('esl_results_total', 'Job results this process handled.', c.results));
      out.push(per('esl_jobs_resent_total', 'Jobs queued again (timeouts, retries).', c.resent));
      out.push(
        family(
          'esl_station_messages_total',
          'Station messages this process handled, by kind (with several servers each is handled by one).',
          'counter',
          Object.entries(delivery.received).map(([kind, value]) => ({ labels: { kind }, value })),
        ),
      );
      out.push(
        per(
          'esl_tag_entries_total',
          'Tag entries of station reports this process stored.',
          delivery.gateway.counters.tagEntries,
        ),
      );
      out.push(
        family(
          'esl_station_messages_dropped_total',
          'Station messages dropped, by reason.',
          'counter',
          Object.entries(delivery.gateway.counters.dropped).map(([reason, value]) => ({ labels: { reason }, value })),
        ),
      );
    }
    for (const x of o.extra?.() ?? []) out.push(family(x.name, x.help, x.type, [{ value: x.value }]));
    out.push(
      family(
        'esl_process_info',
        'This server process (the answering one, when behind one port with WORKERS).',
        'gauge',
        [{ labels: { host: hostname(), pid: String(process.pid) }, value: 1 }],
      ),
    );
    // prom-client's: call latency, then Node's own (memory, CPU, event-loop lag, heap, GC) and the build.
    out.push((await latency.metrics()).trimEnd());
    out.push((await runtime.metrics()).trimEnd());
    reply.header('cache-control', 'no-store').type('text/plain; version=0.0.4; charset=utf-8');
    return `${out.join('\n')}\n`;
  });
}
