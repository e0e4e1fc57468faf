import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { VERSION } from '../infra/version';

/*
 * The /metrics families that prom-client keeps (issue 26 item 5): Node's own (event-loop lag, heap
 * by space, GC pauses, CPU, memory, handles: prom-client's default metrics, once per process),
 * `esl_build_info{version,node}`, and per app a latency histogram of every call.
 */

let runtime: Registry | null = null;

/** This process's runtime metrics and build info; started on the first call, once per process. */
export function runtimeRegistry(): Registry {
  if (runtime) return runtime;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const info = new Gauge({
    name: 'esl_build_info',
    help: 'The running version of the platform (always 1), with the Node.js version.',
    labelNames: ['version', 'node'],
    registers: [registry],
  });
  info.set({ version: VERSION, node: process.version }, 1);
  runtime = registry;
  return registry;
}

/** Seconds; from a cached session check to a relabel of a whole store. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * esl_http_request_duration_seconds{method,route,code}: one series per call (the route's pattern,
 * so /api/… calls and /open/v1/… calls each count apart; answers no route matched are `unmatched`,
 * keeping the label set bounded), `code` the status class.
 */
export function requestLatency(app: FastifyInstance, skip: string): Registry {
  const registry = new Registry();
  const histogram = new Histogram({
    name: 'esl_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route (the call) and status class.',
    labelNames: ['method', 'route', 'code'],
    buckets: BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route === skip) return;
    histogram.observe(
      { method: request.method, route: route ?? 'unmatched', code: `${Math.floor(reply.statusCode / 100)}xx` },
      reply.elapsedTime / 1000,
    );
  });
  return registry;
}
