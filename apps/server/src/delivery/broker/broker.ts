import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { DEFAULTS, LIMITS, type StationKey, stationUsername } from '@esl/contract/protocol';
import { Aedes, type Client } from 'aedes';
import { Admission, type Pending } from './admission';
import { installAuthorization } from './authorize';
import type { StationDirectory } from './directory';
import type { BrokerEvent } from './events';
import { installLogin } from './login';
import { guardPacketSize } from './packet-guard';
import type { BrokerLimits, BrokerLog, BrokerState, Session } from './state';

export type { BrokerLimits, BrokerLog } from './state';

/*
 * The embedded MQTT broker (DELIVERY.md §4.3): aedes in the server's process, with station logins
 * and failed-login throttling (login.ts), a per-station ACL and publish budget (authorize.ts) and
 * a packet-size guard on each listener's sockets (here). The server's own code uses the broker
 * in-process (../mqtt/inprocess.ts) and never logs in.
 */

export const DEFAULT_BROKER_LIMITS: BrokerLimits = {
  // No lockout (docs/SERVER.md, "Station logins"): waits that grow with failures, per username and
  // address pair, and per address against spraying; a station's right secret from its usual
  // address is checked whatever strangers did.
  pairWait: { free: 3, firstMs: 1_000, maxMs: 5 * 60_000, forgetMs: 60 * 60_000 },
  addressWait: { free: 20, firstMs: 1_000, maxMs: 60_000, forgetMs: 60 * 60_000 },
  maxPacketBytes: LIMITS.maxPacketBytes,
  // A station's CONNECT is ~200 bytes (username, 48-digit secret, a Will of ~100): 8 KiB leaves
  // room for MQTT 5 properties and long ids; a 500 KB one is a stranger's.
  maxConnectBytes: 8192,
  // Not logged in yet (admission.ts): arriving (CONNECT not complete) at most 16 per address past
  // a 2 s grace and 1,024 in all; verifying (complete CONNECT, secret being checked) 1,024.
  pendingPerAddress: 16,
  pendingTotal: 1024,
  verifyingTotal: 1024,
  arrivalGraceMs: 2_000,
  connectTimeoutMs: 10_000,
  publishBurst: 200,
  publishPerS: 50,
  keepaliveLimitS: DEFAULTS.maxKeepaliveS,
  drainTimeoutMs: 10_000,
  concurrency: 1000,
};

export interface StationBrokerOptions {
  directory: StationDirectory;
  /** Every refusal, lockout, takeover, connect and disconnect (see events.ts). */
  onEvent?: (e: BrokerEvent) => void;
  log?: BrokerLog;
  now?: () => number;
  limits?: Partial<BrokerLimits>;
}

export interface ListenOptions {
  port: number;
  host: string;
  /** PEM certificate and key: the listener speaks MQTT over TLS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
}

export interface StationBroker {
  readonly aedes: Aedes;
  /** Opens a listener (call again for a TLS one); resolves with its address. */
  listen(options: ListenOptions): Promise<AddressInfo>;
  /**
   * Connections not logged in: held now (`open`, of which `verifying` have sent their CONNECT and
   * wait for its check), closed to make room, closed for sending more than a CONNECT, refused
   * because `verifyingTotal` logins were being checked.
   */
  halfOpen(): { open: number; verifying: number; evicted: number; tooLarge: number; busy: number };
  /** The station a connected client logged in as. */
  stationOf(client: Client): StationKey | undefined;
  /** Closes the station's connection, if it has one (its secret was renewed, it was deleted). */
  disconnect(station: StationKey): boolean;
  /** Stops listening, disconnects every client, closes the broker. */
  close(): Promise<void>;
}

const silentLog: BrokerLog = { warn() {}, error() {} };

export async function createStationBroker(options: StationBrokerOptions): Promise<StationBroker> {
  const limits = { ...DEFAULT_BROKER_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const log = options.log ?? silentLog;
  const emit = (e: BrokerEvent) => {
    try {
      options.onEvent?.(e);
    } catch (err) {
      log.error({ err }, 'broker event handler failed');
    }
  };
  /** Remote address per connection, as aedes sees it (the guarded stream). */
  const addresses = new WeakMap<object, string>();
  const sessions = new WeakMap<Client, Session>();
  /** The same sessions by connection stream, for the packet-size guard (which sees no client). */
  const streamSessions = new WeakMap<object, Session>();

  const aedes = await Aedes.createBroker({
    concurrency: limits.concurrency,
    drainTimeout: limits.drainTimeoutMs,
    keepaliveLimit: limits.keepaliveLimitS,
    connectTimeout: limits.connectTimeoutMs,
    // `{tid}.{sn}` can reach 49 characters; MQTT 3.1's 23-character limit does not apply to 3.1.1.
    maxClientsIdLength: 64,
  });

  const state: BrokerState = {
    limits,
    now,
    log,
    emit,
    addresses,
    sessions,
    streamSessions,
    clients: (aedes as unknown as { clients: Record<string, Client | undefined> }).clients,
  };
  installLogin(aedes, state, options.directory);
  installAuthorization(aedes, state);

  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  // Connections not logged in (admission.ts): capped; each holds at most maxConnectBytes.
  const admission = new Admission(limits);
  const halfOpen = new WeakMap<object, Pending>();
  state.loggedIn = (conn) => {
    const p = halfOpen.get(conn);
    if (p) admission.settle(p);
  };
  state.connectReceived = (conn) => {
    const p = halfOpen.get(conn);
    return p !== undefined && admission.verify(p);
  };

  const handle = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {}); // reported through aedes (clientError) or not worth reporting
    const address = socket.remoteAddress ?? 'unknown';
    const loggedIn = () => streamSessions.has(stream);
    const stream = guardPacketSize(
      socket,
      () => (loggedIn() ? limits.maxPacketBytes : limits.maxConnectBytes),
      (bytes) => {
        const station = streamSessions.get(stream)?.station ?? null;
        // Before login nothing names a station: counted, not logged (a stranger's text stays out).
        if (!station) tooLargeBeforeLogin++;
        else emit({ type: 'station.packet_too_large', station, bytes, address });
      },
      { loggedIn, bytes: limits.maxConnectBytes },
    );
    const pending: Pending = { address, close: () => socket.destroy() };
    halfOpen.set(stream, pending);
    admission.admit(pending);
    socket.on('close', () => {
      sockets.delete(socket);
      admission.settle(pending);
    });
    addresses.set(stream, address);
    aedes.handle(stream);
  };
  let tooLargeBeforeLogin = 0;

  return {
    aedes,
    stationOf: (client) => sessions.get(client)?.station,
    halfOpen: () => ({
      open: admission.count(),
      verifying: admission.verifyingCount(),
      evicted: admission.evicted,
      tooLarge: tooLargeBeforeLogin,
      busy: admission.busy,
    }),
    disconnect(station) {
      const client = state.clients[stationUsername(station)];
      if (!client) return false;
      client.close();
      return true;
    },
    async listen({ port, host, tls }) {
      const server = tls ? createTlsServer({ cert: tls.cert, key: tls.key }, handle) : createServer(handle);
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return server.address() as AddressInfo;
    },
    async close() {
      admission.stop();
      const stopped = servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
      const closed = new Promise<void>((resolve) => aedes.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await Promise.all([...stopped, closed]);
    },
  };
}
