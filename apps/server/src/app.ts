import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { API_BASE, ErrorCode, OPEN_BASE, pickLanguage } from '@esl/contract';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Services } from './api/context';
import { messageOf } from './api/errors';
import { registerCalls } from './api/register';
import { registerNoticeSocket } from './api/socket';
import { noStationAccounts } from './api/station-accounts';
import { noStationBridges } from './api/station-bridges';
import { noStationLink } from './api/station-control';
import { type Delivery, startDelivery } from './delivery/wiring';
import { writeSysLog } from './infra/audit/syslog';
import { notifyOn, startPgBus } from './infra/cache/pgbus';
import { attachCache, SharedCache } from './infra/cache/shared';
import { startNoticeRelay } from './infra/cluster/notices';
import { notifyChannel } from './infra/cluster/repository';
import type { Config } from './infra/config';
import { type Db, openDatabase } from './infra/db/database';
import { startLogRetention } from './infra/logs';
import { Notices } from './infra/notice/notices';
import { registerOpenApi } from './infra/openapi/routes';
import { createRenderPool, PREVIEW_WORKERS } from './infra/render';
import { staticFileOptions } from './infra/web/compression';
import { isPdaPath, registerSecurityHeaders } from './infra/web/headers';
import { placeholderPage } from './infra/web/placeholder';
import { createHealth, type Health, registerHealth } from './metrics/health';
import { registerMetrics } from './metrics/metrics';
import { handlers } from './modules';
import { type CallbackSender, startCallbackSender } from './modules/callbacks/sender';
import { registerTemplateAssets } from './modules/templates/assets';
import { registerAvatarRoute } from './modules/users/avatar';
import { registerIntegrationCalls } from './open/register';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    /** The station broker and gateway; null when config.mqtt is. */
    delivery: Delivery | null;
    /** The callback sender (tests call `callbacks.tick()` after moving the clock). */
    callbacks: CallbackSender;
    /** /healthz, /livez, /readyz; main.ts starts the drain on SIGTERM. */
    health: Health;
  }
}

/** Largest JSON body a call takes (a template with its images is the largest real one). */
export const BODY_LIMIT_BYTES = 4 * 1024 * 1024;

const isApi = (url: string) =>
  [API_BASE, OPEN_BASE].some((base) => url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`));

/**
 * The whole server: infrastructure → the API → OpenAPI → static console. The database must be
 * migrated already (main.ts and the test harness do it); the app closes it on close.
 */
export async function buildApp(config: Config, database: Db = openDatabase(config.databaseUrl)) {
  // request.ip and request.protocol follow X-Forwarded-For / -Proto only from a trusted proxy.
  const app = Fastify({
    logger: config.logger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy.length ? config.trustProxy : false,
  });
  const cache = new SharedCache(undefined, undefined, config.now);
  // Template previews and thumbnails are drawn in worker threads of their own (issue 11 item 3),
  // so a 4096 × 4096 preview holds no other request, nor waits behind a relabel of many tags.
  const previews = createRenderPool({ workers: Math.min(config.renderWorkers, PREVIEW_WORKERS) });
  const services: Services = {
    db: database.db,
    dialect: database.dialect,
    config,
    notices: new Notices(),
    cache,
    stationAccounts: noStationAccounts,
    stationLink: noStationLink,
    stationBridges: noStationBridges,
    stationBroker: null,
    previews,
  };
  app.decorate('services', services);
  if (!config.readCache) cache.enabled = false;
  else attachCache(database.db, cache);
  if (config.readCache && database.dialect === 'postgres') {
    const bus = startPgBus(config.databaseUrl, cache, notifyOn(database.db), (message) => app.log.warn(message));
    app.addHook('onClose', () => bus.close());
  }
  // Console notices reach the consoles of every server process on the database (cluster/notices.ts).
  const relay =
    database.dialect === 'postgres'
      ? startNoticeRelay(
          config.databaseUrl,
          services.notices,
          (channel, payload) => notifyChannel(database.db, channel, payload),
          (message) => app.log.warn(message),
        )
      : null;
  if (relay) app.addHook('onClose', () => relay.close());
  app.addHook('onClose', () => database.close());
  app.addHook('onClose', () => previews.close());

  // The tag log and the data-push log keep each store's tagLogDays (stops before the database closes).
  const retention = startLogRetention({
    db: database.db,
    now: config.now,
    onError: (err) => app.log.error({ err }, 'pruning the delivery logs failed'),
  });
  app.addHook('onClose', () => retention.stop());

  // Callbacks to the tenants' own servers, from the durable outbox (docs/INTEGRATION.md).
  const callbackSender = startCallbackSender({
    db: database.db,
    now: config.now,
    policy: config.callbacks,
    timeoutMs: config.callbacks.timeoutMs,
    tickMs: config.callbacks.tickMs,
    selfUrls: config.publicUrl ? [config.publicUrl] : [],
    onError: (err) => app.log.error({ err }, 'sending callbacks failed'),
  });
  app.decorate('callbacks', callbackSender);
  app.addHook('onClose', () => callbackSender.stop());

  // The station broker (onClose hooks run last-registered first: it stops before the database).
  const delivery = config.mqtt
    ? await startDelivery(config.mqtt, {
        db: database.db,
        notices: services.notices,
        now: config.now,
        log: app.log,
        tickMs: config.deliveryTickMs,
        renderWorkers: config.renderWorkers,
        shared: database.dialect === 'postgres',
        bridges: config.bridges,
      })
    : null;
  app.decorate('delivery', delivery);
  if (delivery) {
    services.stationAccounts = delivery.accounts;
    services.stationLink = delivery.gateway.control;
    services.stationBridges = delivery.bridges;
    services.stationBroker = {
      url: delivery.url,
      tlsUrl: delivery.tlsUrl,
      anyHost: delivery.anyHost,
      publicUrls: config.mqtt?.publicUrls ?? [],
    };
    app.addHook('onClose', () => delivery.close());
  }

  // Infrastructure
  registerSecurityHeaders(app);
  acceptEmptyJson(app);
  await app.register(cookie);
  await app.register(formbody);
  await app.register(multipart, { limits: { files: 1, fields: 10 } });
  await app.register(rateLimit, { global: false });
  await app.register(websocket);
  app.setErrorHandler((err: FastifyError, request, reply) => handleError(services, err, request, reply));

  // The API
  const missing = registerCalls(app, services, handlers, {
    login: { rateLimit: { max: config.loginRateLimitPerMinute, timeWindow: 60_000 } },
  });
  if (missing.length) app.log.warn(`ready calls without a handler answer 1007: ${missing.join(', ')}`);
  registerAvatarRoute(app, services.db);
  registerTemplateAssets(app, services.db);
  registerNoticeSocket(app, services);
  const health = createHealth({
    database,
    delivery: () => delivery,
    log: (err, what) => app.log.warn({ err }, `/readyz: ${what} failed`),
  });
  app.decorate('health', health);
  registerHealth(app, health);
  registerMetrics(app, {
    database,
    delivery: () => delivery,
    token: config.metricsToken,
    now: config.now,
    extra: () =>
      relay
        ? [
            {
              name: 'esl_notices_relayed_total',
              help: 'Console notices this process sent to the other server processes.',
              type: 'counter' as const,
              value: relay.counters.sent,
            },
            {
              name: 'esl_notices_from_others_total',
              help: 'Console notices received from the other server processes.',
              type: 'counter' as const,
              value: relay.counters.received,
            },
          ]
        : [],
  });
  // The integration API for ERP/POS callers, signed with the tenant's key pair (docs/INTEGRATION.md).
  await registerIntegrationCalls(app, services);

  // OpenAPI document and reference page
  registerOpenApi(app);

  // The console
  const hasConsole = existsSync(join(config.webDist, 'index.html'));
  if (hasConsole) await app.register(fastifyStatic, staticFileOptions(config.webDist));
  app.setNotFoundHandler((request, reply) => notFound(request, reply, hasConsole));

  return app;
}

/** The console sends POSTs without a body; treat an empty JSON body as `{}`. */
function acceptEmptyJson(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('invalid JSON body'), { statusCode: 400 }), undefined);
    }
  });
}

// Sends without returning the reply: returning it had Fastify await it as a thenable and pile up
// close listeners on the response (MaxListenersExceededWarning under the history fallback).
function notFound(request: FastifyRequest, reply: FastifyReply, hasConsole: boolean): void {
  const path = request.url.split('?')[0] ?? '/';
  if (isApi(path)) {
    const lang = pickLanguage(request.headers['accept-language']);
    reply.send({ code: ErrorCode.NOT_FOUND, msg: messageOf(ErrorCode.NOT_FOUND, lang), data: null });
    return;
  }
  const lastSegment = path.slice(path.lastIndexOf('/') + 1);
  const historyRoute =
    (request.method === 'GET' || request.method === 'HEAD') &&
    !path.startsWith('/uploads/') &&
    !lastSegment.includes('.');
  if (!historyRoute) reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  else if (hasConsole) reply.header('cache-control', 'no-cache').sendFile(isPdaPath(path) ? 'pda.html' : 'index.html');
  else reply.type('text/html; charset=utf-8').send(placeholderPage());
}

/**
 * Client mistakes under /api (bad JSON, unsupported body type) answer the envelope with HTTP 200,
 * too many login attempts with HTTP 429 and Retry-After; anything else is a crash: HTTP 500, a generic message, a system-log row.
 */
async function handleError(services: Services, err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const lang = pickLanguage(request.headers['accept-language']);
  const status = err.statusCode ?? 500;
  const api = isApi(request.url);
  if (status < 500) {
    if (!api) return reply.code(status).type('text/plain; charset=utf-8').send(err.message);
    const code =
      status === 429 ? ErrorCode.TOO_MANY_REQUESTS : status === 413 ? ErrorCode.TOO_LARGE : ErrorCode.VALIDATION;
    const vars =
      code === ErrorCode.VALIDATION
        ? { field: 'body', detail: 'body' }
        : code === ErrorCode.TOO_LARGE
          ? { detail: `${BODY_LIMIT_BYTES / 1024 / 1024} MB` }
          : {};
    // Too many requests keeps its 429 (and the Retry-After @fastify/rate-limit set) beside the code.
    return reply.code(status === 429 ? 429 : 200).send({ code, msg: messageOf(code, lang, vars), data: null });
  }
  request.log.error(err);
  await writeSysLog(services, {
    tenantId: null,
    level: 'error',
    event: 'server.error',
    message: `${request.method} ${request.url.split('?')[0]}: ${err.message}`,
    time: services.config.now(),
  });
  const msg = messageOf(ErrorCode.INTERNAL, lang);
  return reply.code(500).send(api ? { code: ErrorCode.INTERNAL, msg, data: null } : msg);
}
