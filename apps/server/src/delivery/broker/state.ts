import type { StationKey } from '@esl/contract/protocol';
import type { Client } from 'aedes';
import type { BrokerEvent } from './events';
import type { WaitRule } from './throttle';

/* What the embedded broker's parts (login.ts, authorize.ts, broker.ts's listeners) share. */

export interface BrokerLimits {
  /** Failed logins of one username from one address: growing waits (throttle.ts), never a lockout. */
  pairWait: WaitRule;
  /** Failed logins from one address for any username (spraying); not applied at a station's usual address. */
  addressWait: WaitRule;
  maxPacketBytes: number;
  /** Largest packet, and bytes in all, a connection may send before its login is accepted (a CONNECT). */
  maxConnectBytes: number;
  /** Connections whose CONNECT has not fully arrived, per address (past the grace) and in all (admission.ts). */
  pendingPerAddress: number;
  pendingTotal: number;
  /** Connections whose complete CONNECT is being checked (admission.ts): never evicted, at most this many. */
  verifyingTotal: number;
  /** How long a connection past `pendingPerAddress` has to send its CONNECT before it may be evicted. */
  arrivalGraceMs: number;
  /** How long a connection may take to send its CONNECT. */
  connectTimeoutMs: number;
  /** Per-connection publish budget: a burst of `publishBurst`, refilled at `publishPerS`. */
  publishBurst: number;
  publishPerS: number;
  keepaliveLimitS: number;
  drainTimeoutMs: number;
  concurrency: number;
}

/** Pino-compatible: the server passes its logger. */
export interface BrokerLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A logged-in station's connection: who, from where, its publish budget. */
export interface Session {
  station: StationKey;
  address: string;
  tokens: number;
  refilledAt: number;
}

export interface BrokerState {
  limits: BrokerLimits;
  now: () => number;
  log: BrokerLog;
  /** Reports an event (a failing handler is logged, never thrown into aedes). */
  emit: (e: BrokerEvent) => void;
  /** Remote address per connection, as aedes sees it (the guarded stream). */
  addresses: WeakMap<object, string>;
  sessions: WeakMap<Client, Session>;
  /** The same sessions by connection stream, for the packet-size guard (which sees no client). */
  streamSessions: WeakMap<object, Session>;
  /** A connection's login was accepted (broker.ts: no longer half-open). */
  loggedIn?: (conn: object) => void;
  /** A connection's CONNECT has fully arrived: its login is checked (true) or refused as busy (false). */
  connectReceived?: (conn: object) => boolean;
  /** aedes's connected clients by client id. */
  clients: Record<string, Client | undefined>;
}
