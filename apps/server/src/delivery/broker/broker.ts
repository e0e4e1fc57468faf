import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { DEFAULTS, LIMITS, parseStationUsername, type StationKey, stationUsername } from '@esl/contract/protocol';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { mayPublish, mayReceive, maySubscribe } from './acl';
import { DECOY_HASH, type StationDirectory, secretMatches } from './directory';
import type { AuthFailure, BrokerEvent } from './events';
import { guardPacketSize } from './packet-guard';
import { FailureThrottle } from './throttle';

/*
 * The embedded MQTT broker (DELIVERY.md §4.3): aedes in the server's process, with station logins,
 * a per-station ACL, failed-login throttling and a packet-size guard. The server's own code uses
 * the broker in-process (../mqtt/inprocess.ts) and never logs in.
 */

export interface BrokerLimits {
  /** Failed logins per address within `addressWindowMs` before the address is refused. */
  addressFailures: number;
  addressWindowMs: number;
  /** Failed logins per username within `usernameWindowMs` (like the console login). */
  usernameFailures: number;
  usernameWindowMs: number;
  maxPacketBytes: number;
  /** Per-connection publish budget: a burst of `publishBurst`, refilled at `publishPerS`. */
  publishBurst: number;
  publishPerS: number;
  keepaliveLimitS: number;
  drainTimeoutMs: number;
  concurrency: number;
}

export const DEFAULT_BROKER_LIMITS: BrokerLimits = {
  addressFailures: 20,
  addressWindowMs: 60_000,
  usernameFailures: 5,
  usernameWindowMs: 15 * 60_000,
  maxPacketBytes: LIMITS.maxPacketBytes,
  publishBurst: 200,
  publishPerS: 50,
  keepaliveLimitS: DEFAULTS.maxKeepaliveS,
  drainTimeoutMs: 10_000,
  concurrency: 1000,
};

/** Pino-compatible: the server passes its logger. */
export interface BrokerLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

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
  /** The station a connected client logged in as. */
  stationOf(client: Client): StationKey | undefined;
  /** Closes the station's connection, if it has one (its secret was renewed, it was deleted). */
  disconnect(station: StationKey): boolean;
  /** Stops listening, disconnects every client, closes the broker. */
  close(): Promise<void>;
}

const silentLog: BrokerLog = { warn() {}, error() {} };

/** CONNACK return codes of MQTT 3.1.1 (aedes maps them for MQTT 5). */
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;
const SERVER_UNAVAILABLE = 3;

function refusal(code: number, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: code }) as AuthenticateError;
}

interface Session {
  station: StationKey;
  address: string;
  tokens: number;
  refilledAt: number;
}

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
  const byAddress = new FailureThrottle(limits.addressFailures, limits.addressWindowMs);
  const byUsername = new FailureThrottle(limits.usernameFailures, limits.usernameWindowMs);
  /** Remote address per connection, as aedes sees it (the guarded stream). */
  const addresses = new WeakMap<object, string>();
  const sessions = new WeakMap<Client, Session>();
  /** The same sessions by connection stream, for the packet-size guard (which sees no client). */
  const streamSessions = new WeakMap<object, Session>();
  const addressOf = (client: Client) => addresses.get(client.conn) ?? 'unknown';

  const aedes = await Aedes.createBroker({
    concurrency: limits.concurrency,
    drainTimeout: limits.drainTimeoutMs,
    keepaliveLimit: limits.keepaliveLimitS,
    // `{tid}.{sn}` can reach 49 characters; MQTT 3.1's 23-character limit does not apply to 3.1.1.
    maxClientsIdLength: 64,
  });
  const clients = (aedes as unknown as { clients: Record<string, Client | undefined> }).clients;

  aedes.authenticate = (client, username, password, done) => {
    const address = addressOf(client);
    const at = now();
    const name = typeof username === 'string' ? username : '';
    const station = parseStationUsername(name);
    const refuse = (reason: AuthFailure, count: { address: boolean; username: boolean }) => {
      let lockout = false;
      if (count.address) lockout = byAddress.fail(address, at) || lockout;
      if (count.username && station) lockout = byUsername.fail(name, at) || lockout;
      emit({ type: 'station.auth_failed', reason, station, username: name, clientId: client.id, address, lockout });
      done(
        refusal(
          reason === 'badSecret' || reason === 'unknownStation' ? BAD_USERNAME_OR_PASSWORD : NOT_AUTHORIZED,
          reason,
        ),
        false,
      );
    };
    // A throttled address or username is refused before anything is looked up; those refusals are
    // not counted again (the window would never end for a station that keeps retrying).
    if (byAddress.blocked(address, at)) return refuseQuietly(done, 'throttledAddress');
    if (!station) return refuse('badUsername', { address: true, username: false });
    if (byUsername.blocked(name, at)) return refuseQuietly(done, 'throttledUsername');
    if (client.id !== name) return refuse('clientIdMismatch', { address: true, username: true });
    options.directory.secretHash(station.tenantId, station.sn).then(
      (hash) => {
        const ok = secretMatches(password, hash ?? DECOY_HASH) && hash !== null;
        if (!ok) return refuse(hash === null ? 'unknownStation' : 'badSecret', { address: true, username: true });
        byUsername.clear(name);
        if (clients[client.id]) emit({ type: 'station.takeover', station, address });
        const session = { station, address, tokens: limits.publishBurst, refilledAt: at };
        sessions.set(client, session);
        streamSessions.set(client.conn, session);
        done(null, true);
      },
      (err: unknown) => {
        log.error({ err, username: name }, 'station directory lookup failed');
        emit({
          type: 'station.auth_failed',
          reason: 'directoryError',
          station,
          username: name,
          clientId: client.id,
          address,
          lockout: false,
        });
        done(refusal(SERVER_UNAVAILABLE, 'directoryError'), false);
      },
    );
  };

  function refuseQuietly(done: (e: AuthenticateError | null, ok: boolean | null) => void, reason: AuthFailure) {
    done(refusal(NOT_AUTHORIZED, reason), false);
  }

  aedes.authorizePublish = (client, packet, done) => {
    const session = client ? sessions.get(client) : undefined;
    // No session: a Will left by a broker restart (none here: memory persistence) or a client
    // that never logged in. Either way nothing to publish.
    if (!client || !session) return done(new Error('not a station'));
    const denied = mayPublish(session.station, packet.topic, { qos: packet.qos, retain: packet.retain });
    if (denied) {
      emit({
        type: 'station.publish_denied',
        station: session.station,
        topic: packet.topic,
        reason: denied,
        address: session.address,
      });
      return done(new Error(denied));
    }
    const size = packet.payload?.length ?? 0;
    if (size > LIMITS.maxMessageBytes) {
      emit({ type: 'station.packet_too_large', station: session.station, bytes: size, address: session.address });
      return done(new Error('payload too large'));
    }
    const at = now();
    session.tokens = Math.min(
      limits.publishBurst,
      session.tokens + ((at - session.refilledAt) / 1000) * limits.publishPerS,
    );
    session.refilledAt = at;
    if (session.tokens < 1) {
      emit({ type: 'station.rate_limited', station: session.station, address: session.address });
      return done(new Error('rate limited'));
    }
    session.tokens -= 1;
    done(null);
  };

  aedes.authorizeSubscribe = (client, sub, done) => {
    const session = sessions.get(client);
    if (!session) return done(new Error('not a station'));
    const denied = maySubscribe(session.station, sub.topic);
    if (denied) {
      emit({
        type: 'station.subscribe_denied',
        station: session.station,
        topic: sub.topic,
        reason: denied,
        address: session.address,
      });
      return done(null, null); // SUBACK 0x80; the connection stays
    }
    done(null, { ...sub, qos: Math.min(sub.qos, 1) as 0 | 1 });
  };

  aedes.authorizeForward = (client, packet) => {
    const session = sessions.get(client);
    return session && mayReceive(session.station, packet.topic) ? packet : null;
  };

  aedes.on('clientReady', (client) => {
    const s = sessions.get(client);
    if (s) emit({ type: 'station.connected', station: s.station, address: s.address });
  });
  aedes.on('clientDisconnect', (client) => {
    const s = sessions.get(client);
    if (s) emit({ type: 'station.disconnected', station: s.station, address: s.address });
  });
  aedes.on('clientError', (client, err) => {
    if (sessions.has(client)) log.warn({ err: err.message, clientId: client.id }, 'station connection error');
  });

  const servers: Server[] = [];
  const sockets = new Set<Socket>();

  const handle = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {}); // reported through aedes (clientError) or not worth reporting
    const address = socket.remoteAddress ?? 'unknown';
    const stream = guardPacketSize(socket, limits.maxPacketBytes, (bytes) => {
      const station = streamSessions.get(stream)?.station ?? null;
      emit({ type: 'station.packet_too_large', station, bytes, address });
    });
    addresses.set(stream, address);
    aedes.handle(stream);
  };

  return {
    aedes,
    stationOf: (client) => sessions.get(client)?.station,
    disconnect(station) {
      const client = clients[stationUsername(station)];
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
      const stopped = servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
      const closed = new Promise<void>((resolve) => aedes.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await Promise.all([...stopped, closed]);
    },
  };
}
