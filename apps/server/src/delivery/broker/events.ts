import type { StationKey } from '@esl/contract/protocol';

/** Why a login was refused. */
export type AuthFailure =
  | 'badUsername'
  | 'clientIdMismatch'
  | 'unknownStation'
  | 'badSecret'
  | 'throttledAddress'
  | 'throttledPair'
  | 'directoryError';

/**
 * What the broker reports. The server writes the warnings to the system log (`event` is the
 * system-log event name) and may count the rest; the broker itself keeps no log of its own.
 */
export type BrokerEvent =
  | {
      type: 'station.auth_failed';
      reason: AuthFailure;
      /** The station named by the username, when it parses. */
      station: StationKey | null;
      username: string;
      clientId: string;
      address: string;
      /** True on the failure that made this username and address (or this address) wait. */
      lockout: boolean;
    }
  | { type: 'station.publish_denied'; station: StationKey; topic: string; reason: string; address: string }
  | { type: 'station.subscribe_denied'; station: StationKey; topic: string; reason: string; address: string }
  | { type: 'station.packet_too_large'; station: StationKey | null; bytes: number; address: string }
  | { type: 'station.rate_limited'; station: StationKey; address: string }
  | { type: 'station.takeover'; station: StationKey; address: string }
  | { type: 'station.connected'; station: StationKey; address: string }
  | { type: 'station.disconnected'; station: StationKey; address: string };

export interface SysLogLine {
  tenantId: number | null;
  level: 'info' | 'warn';
  event: string;
  message: string;
  /** A station's event: the row belongs to its store. */
  stationSn?: string;
  /** The store, when the writer knows it. */
  storeId?: number;
}

const who = (s: StationKey | null) => (s ? `station ${s.sn}` : 'unknown station');

/** The system-log row for an event (the server adds the time and writes it). */
export function describeBrokerEvent(e: BrokerEvent): SysLogLine {
  switch (e.type) {
    case 'station.auth_failed': {
      // Nobody logged in: the platform operator's log, never a tenant's (anyone can name any
      // tenant in a username), and no text the client chose — the reason, the address and the
      // tenant number the username named; the damped writer counts repeats into one row a minute.
      const throttled = e.reason === 'throttledAddress' || e.reason === 'throttledPair';
      return {
        tenantId: null,
        level: 'warn',
        event: e.type,
        message:
          `MQTT login refused (${e.reason}) from ${e.address}` +
          (e.station ? ` for a station of tenant ${e.station.tenantId}` : '') +
          (e.lockout && !throttled ? '; further attempts from there wait' : ''),
      };
    }
    case 'station.publish_denied':
    case 'station.subscribe_denied':
      return {
        tenantId: e.station.tenantId,
        stationSn: e.station.sn,
        level: 'warn',
        event: e.type,
        message: `${who(e.station)} (${e.address}) may not ${e.type === 'station.publish_denied' ? 'publish to' : 'subscribe to'} ${JSON.stringify(e.topic.slice(0, 200))}: ${e.reason}`,
      };
    case 'station.packet_too_large':
      return {
        tenantId: e.station?.tenantId ?? null,
        ...(e.station ? { stationSn: e.station.sn } : {}),
        level: 'warn',
        event: e.type,
        message: `${who(e.station)} (${e.address}) sent an MQTT packet of ${e.bytes} bytes; connection closed`,
      };
    case 'station.rate_limited':
      return {
        tenantId: e.station.tenantId,
        stationSn: e.station.sn,
        level: 'warn',
        event: e.type,
        message: `${who(e.station)} (${e.address}) published too fast; connection closed`,
      };
    case 'station.takeover':
      return {
        tenantId: e.station.tenantId,
        stationSn: e.station.sn,
        level: 'warn',
        event: e.type,
        message: `${who(e.station)} connected from ${e.address} while already connected: the older connection was closed (two devices with one secret?)`,
      };
    case 'station.connected':
    case 'station.disconnected':
      return {
        tenantId: e.station.tenantId,
        stationSn: e.station.sn,
        level: 'info',
        event: e.type,
        message: `${who(e.station)} ${e.type === 'station.connected' ? 'connected from' : 'disconnected from'} ${e.address}`,
      };
  }
}
