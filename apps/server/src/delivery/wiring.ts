import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { createSecureContext } from 'node:tls';
import type { StationKey } from '@esl/contract/protocol';
import type { Kysely } from 'kysely';
import { noStationAccounts, type StationAccounts } from '../api/station-accounts';
import { deliveryLeases } from '../infra/cluster/leases';
import type { BridgeConfig, MqttConfig } from '../infra/config';
import type { Database } from '../infra/db/schema';
import type { Notices } from '../infra/notice/notices';
import { collectImages, createRenderPool, loadImage, storeImages } from '../infra/render';
import { type BridgeManager, createBridgeManager } from './bridges/manager';
import { type BrokerLog, createStationBroker, type StationBroker } from './broker/broker';
import { type BrokerEvent, describeBrokerEvent } from './broker/events';
import { connectDynsec, type Dynsec } from './dynsec';
import { createFirmwareEngine, type FirmwareEngine, type FirmwareEngineOptions } from './firmware/engine';
import { createGateway, type Gateway, type GatewayOptions } from './gateway/gateway';
import { secretHashOf } from './gateway/repository';
import { mqttStationLink, type StationLink } from './link/station-link';
import { connectClientPort } from './mqtt/client';
import { countingPort } from './mqtt/counting';
import { inProcessPort } from './mqtt/inprocess';
import type { MqttPort } from './mqtt/port';
import { resyncAfterDeath } from './resync';
import { createScheduleEngine, type ScheduleEngine } from './schedule/engine';
import { type DampedSysLog, dampedSysLog } from './syslog';
import { createTaskEngine, type EngineOptions, type TaskEngine } from './tasks/engine';

/*
 * Start-up wiring of the delivery layer: the station broker (embedded aedes, or a client of
 * MQTT_URL), the one StationLink every message to a station goes through, the gateway (the one
 * place station messages come in) with the task and firmware engines as its consumers, the
 * sweeper's timer, and the station accounts the stations module tells about new secrets.
 */

export interface Delivery {
  readonly gateway: Gateway;
  /** The task engine: renders, dispatches, follows acks and results (delivery/tasks). */
  readonly tasks: TaskEngine;
  /** Firmware upgrades of stations, modules and tags (src/firmware). */
  readonly firmware: FirmwareEngine;
  /** Scheduled changes and timed labels (delivery/schedule, docs/SCHEDULE.md). */
  readonly schedule: ScheduleEngine;
  /** The embedded broker; null on an external one. */
  readonly broker: StationBroker | null;
  /** Where stations connect (the embedded listener's real port, or MQTT_URL). */
  readonly url: string;
  /** The embedded broker's TLS listener (`mqtts://…`, MQTT_TLS_CERT and MQTT_TLS_KEY); null: none. */
  readonly tlsUrl: string | null;
  /**
   * The embedded broker listens on every address (MQTT_HOST 0.0.0.0 or ::), so a station reaches
   * it at whatever address it reaches this server by; `url` then names the loopback address.
   */
  readonly anyHost: boolean;
  readonly accounts: StationAccounts;
  readonly syslog: DampedSysLog;
  /** The server's own MQTT side (tests publish through it as if a station had). */
  readonly port: MqttPort;
  /** Where every message to a station goes (over `port`). */
  readonly link: StationLink;
  /** Station messages this process received, by kind (/metrics). */
  readonly received: Readonly<Record<string, number>>;
  /** The bridges to OpenEPaperLink access points this process runs (bridges/manager.ts). */
  readonly bridges: BridgeManager;
  close(): Promise<void>;
}

export interface DeliveryDeps {
  db: Kysely<Database>;
  notices: Notices;
  now: () => number;
  log: BrokerLog & { info?(obj: object, msg: string): void };
  /** Sweeper period, ms (1 s); 0: no timer (tests call `gateway.tick()` themselves). */
  tickMs?: number;
  gateway?: Partial<
    Pick<GatewayOptions, 'presence' | 'missedHeartbeats' | 'silenceSweepMs' | 'tagStatusMs' | 'timeSyncMs'>
  >;
  tasks?: Partial<Pick<EngineOptions, 'reconcileMs' | 'backoffScale' | 'renderBatch'>>;
  firmware?: Partial<Pick<FirmwareEngineOptions, 'retryMs' | 'maxAttempts'>>;
  /** Render worker threads (0: the calling thread). */
  renderWorkers?: number;
  /**
   * Several server processes may share the database (PostgreSQL): station dispatch and the task
   * sweeps go by leases (cluster/leases.ts). False or absent (SQLite): this process does all.
   */
  shared?: boolean;
  /** The in-process OEPL bridges (absent: the defaults, a look every 5 s). */
  bridges?: BridgeConfig;
}

/** Broker events worth a system-log row: refusals and takeovers (presence is the gateway's). */
const LOGGED = new Set<BrokerEvent['type']>([
  'station.auth_failed',
  'station.publish_denied',
  'station.subscribe_denied',
  'station.packet_too_large',
  'station.rate_limited',
  'station.takeover',
]);

export async function startDelivery(config: MqttConfig, deps: DeliveryDeps): Promise<Delivery> {
  const syslog = dampedSysLog(deps.db, deps.now);
  const station = await connectStations(config, deps, syslog);
  const counting = countingPort(station.port);
  const port = counting.port;
  const link = mqttStationLink(port);
  const pool = createRenderPool({ workers: deps.renderWorkers ?? 0 });
  const owner = config.mode === 'external' ? `srv-${config.instanceId}` : `srv-${hostname()}-${process.pid}`;
  const leases = deps.shared ? deliveryLeases(deps.db, owner, deps.now, deps.tickMs ?? 1000) : null;
  const tasks = createTaskEngine({
    db: deps.db,
    link,
    notices: deps.notices,
    now: deps.now,
    render: {
      render: (jobs) => pool.render(jobs),
      storeImages: (trx, tenantId, images) => storeImages(trx, tenantId, images, deps.now()),
      loadImage: async (db, tenantId, hash) => (await loadImage(db, tenantId, hash))?.bytes ?? null,
      collect: (db, now) => collectImages(db, now),
      close: () => pool.close(),
    },
    owner,
    claimStation: leases?.station,
    onError: (err, what) => deps.log.error({ err }, `delivery tasks failed: ${what}`),
    ...deps.tasks,
  });

  const firmware = createFirmwareEngine({
    db: deps.db,
    link,
    notices: deps.notices,
    now: deps.now,
    syslog: (line) => syslog.write(line),
    claimStation: leases?.station,
    onError: (err, what) => deps.log.error({ err }, `firmware failed: ${what}`),
    ...deps.firmware,
  });

  const schedule = createScheduleEngine({
    db: deps.db,
    link,
    notices: deps.notices,
    now: deps.now,
    render: (jobs) => pool.render(jobs),
    storeImages: (tenantId, images) => storeImages(deps.db, tenantId, images, deps.now()),
    loadImage: async (tenantId, hash) => (await loadImage(deps.db, tenantId, hash))?.bytes ?? null,
    claimStation: leases?.station,
    onError: (err, what) => deps.log.error({ err }, `schedule failed: ${what}`),
  });

  const gateway = createGateway({
    db: deps.db,
    port,
    link,
    notices: deps.notices,
    now: deps.now,
    syslog: syslog.write,
    share: config.mode === 'external' ? 'esl' : undefined,
    onError: (err, what) => deps.log.error({ err }, `station message failed: ${what}`),
    consumers: [tasks, firmware, schedule],
    // With several processes `down/time` goes out from the sweeper lease's holder only.
    claimTimeSync: leases?.sweeper,
    ...deps.gateway,
  });
  await gateway.start();
  // Changes that came due while no server ran take effect before the reconciler looks at the tags.
  await schedule.tick();
  await tasks.start();
  const timer = startSweeper({ deps, gateway, tasks, firmware, schedule, link, leases, syslog });
  const bridges = createBridgeManager({
    db: deps.db,
    url: station.url,
    accounts: station.accounts,
    now: deps.now,
    start: deps.bridges?.start,
    claim: leases?.bridge,
    release: leases?.releaseBridge,
    reconcileMs: deps.bridges?.reconcileMs ?? 5000,
    log: (line) => deps.log.info?.({}, line),
    onError: (err) => deps.log.error({ err }, 'OEPL bridge failed'),
  });
  // Started now, not awaited: a bridge waiting for its AP or the broker holds no start-up.
  void bridges.reconcile();

  return {
    gateway,
    tasks,
    firmware,
    schedule,
    broker: station.broker,
    url: station.url,
    tlsUrl: station.tlsUrl,
    anyHost: station.anyHost,
    accounts: station.accounts,
    syslog,
    port,
    link,
    received: counting.received,
    bridges,
    async close() {
      if (timer) clearInterval(timer);
      await bridges.close();
      schedule.close();
      await schedule.idle();
      await gateway.close();
      await tasks.close();
      await port.close();
      await station.dynsec?.close();
      await station.broker?.close();
      await syslog.flush();
    },
  };
}

/** Where the server meets its stations: the embedded broker's listeners, or a client of MQTT_URL. */
interface StationSide {
  broker: StationBroker | null;
  port: MqttPort;
  url: string;
  tlsUrl: string | null;
  anyHost: boolean;
  accounts: StationAccounts;
  dynsec: Dynsec | null;
}

async function connectStations(config: MqttConfig, deps: DeliveryDeps, syslog: DampedSysLog): Promise<StationSide> {
  if (config.mode !== 'embedded') {
    const port = await connectClientPort({
      url: config.url,
      clientId: `esl-server-${config.instanceId}`,
      username: config.username,
      password: config.password,
    });
    let dynsec: Dynsec | null = null;
    if (config.adminUsername && config.adminPassword) {
      dynsec = await connectDynsec({
        url: config.url,
        username: config.adminUsername,
        password: config.adminPassword,
        clientId: `esl-admin-${config.instanceId}`,
      });
    }
    return {
      broker: null,
      port,
      url: config.url,
      tlsUrl: null,
      anyHost: false,
      accounts: dynsec ?? noStationAccounts,
      dynsec,
    };
  }
  const broker = await createStationBroker({
    directory: { secretHash: (tenantId, sn) => secretHashOf(deps.db, { tenantId, sn }) },
    onEvent: (e) => {
      if (LOGGED.has(e.type)) syslog.write(describeBrokerEvent(e));
    },
    now: deps.now,
    log: deps.log,
  });
  let url: string;
  let tlsUrl: string | null = null;
  let anyHost = false;
  try {
    const tls = config.tls ? readTls(config.tls.certFile, config.tls.keyFile) : null;
    const plain = await broker.listen({ port: config.port, host: config.host });
    anyHost = isWildcard(plain.address);
    url = urlOf('mqtt', plain);
    if (config.tls && tls) {
      // The same broker behind a node:tls server: each decrypted socket is handled like a plain one.
      tlsUrl = urlOf('mqtts', await broker.listen({ port: config.tls.port, host: config.host, tls }));
    }
  } catch (err) {
    await broker.close();
    throw err;
  }
  const kick = async (key: StationKey) => {
    broker.disconnect(key);
  };
  return {
    broker,
    port: inProcessPort(broker.aedes),
    url,
    tlsUrl,
    anyHost,
    accounts: { secretIssued: kick, removed: kick },
    dynsec: null,
  };
}

interface SweeperParts {
  deps: DeliveryDeps;
  gateway: Gateway;
  tasks: TaskEngine;
  firmware: FirmwareEngine;
  schedule: ScheduleEngine;
  link: StationLink;
  leases: ReturnType<typeof deliveryLeases> | null;
  syslog: DampedSysLog;
}

/** The sweeper's timer (`tickMs`; null for 0, when tests tick by hand). */
function startSweeper({ deps, gateway, tasks, firmware, schedule, link, leases, syslog }: SweeperParts) {
  let ticking = false;
  const timer =
    (deps.tickMs ?? 1000) > 0
      ? setInterval(() => {
          if (ticking) return;
          ticking = true;
          // With several processes only the sweeper lease's holder runs the task and firmware sweeps;
          // the others pump (render, dispatch: to the stations whose lease they hold) as usual.
          Promise.all([
            gateway.tick(),
            (leases ? leases.sweeper() : Promise.resolve(true)).then(async (sweep) => {
              if (!sweep) {
                tasks.kick();
                return Promise.all([firmware.pump(), schedule.tick()]);
              }
              if (leases) {
                const r = await resyncAfterDeath(deps.db, link, deps.now);
                if (r.dead.length)
                  syslog.write({
                    tenantId: null,
                    level: 'warn',
                    event: 'server.process_lost',
                    message: `server process ${r.dead.map((d) => d.slice('process:'.length)).join(', ')} stopped without a goodbye; ${r.welcomed} stations asked to resend their results`,
                  });
              }
              await Promise.all([tasks.tick(), firmware.tick(), schedule.tick()]);
            }),
          ])
            .catch((err: unknown) => deps.log.error({ err }, 'delivery sweeper failed'))
            .finally(() => {
              ticking = false;
            });
        }, deps.tickMs ?? 1000)
      : null;
  timer?.unref();
  return timer;
}

/** `mqtt://host:port` of a listener (an any-address listener shown as the loopback address). */
const isWildcard = (address: string) => address === '0.0.0.0' || address === '::';

function urlOf(scheme: 'mqtt' | 'mqtts', address: AddressInfo): string {
  const host = isWildcard(address.address) ? '127.0.0.1' : address.address;
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/** The TLS listener's PEM certificate and key, with the variable to fix when one cannot be read. */
function readTls(certFile: string, keyFile: string): { cert: Buffer; key: Buffer } {
  const read = (file: string, name: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(`${name}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  };
  const pem = { cert: read(certFile, 'MQTT_TLS_CERT'), key: read(keyFile, 'MQTT_TLS_KEY') };
  try {
    createSecureContext(pem);
  } catch (err) {
    throw new Error(
      `MQTT_TLS_CERT and MQTT_TLS_KEY: not a PEM certificate and its private key (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  return pem;
}
