import { parseStationUsername } from '@esl/contract/protocol';
import type { Aedes, AuthenticateError } from 'aedes';
import { DECOY_HASH, type StationDirectory, secretMatches } from './directory';
import type { AuthFailure } from './events';
import type { BrokerState } from './state';
import { GrowingWaits, UsualAddresses } from './throttle';

/*
 * Station logins on the embedded broker: the username names the station (`{tid}.{sn}`, also its
 * client id), the password is checked against its secret's hash; failed logins make the next
 * attempt wait (growing, capped; never a lockout) per username and address pair and per address,
 * except that a station's right secret from its usual address is always checked; a second login
 * of a station takes over its session.
 */

/** CONNACK return codes of MQTT 3.1.1 (aedes maps them for MQTT 5). */
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;
const SERVER_UNAVAILABLE = 3;
const IDENTIFIER_REJECTED = 2;

function refusal(code: number, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: code }) as AuthenticateError;
}

function refuseQuietly(done: (e: AuthenticateError | null, ok: boolean | null) => void, reason: AuthFailure) {
  done(refusal(NOT_AUTHORIZED, reason), false);
}

/** Sets the broker's `authenticate`. */
export function installLogin(aedes: Aedes, state: BrokerState, directory: StationDirectory): void {
  const { limits, now, log, emit, sessions, streamSessions, clients } = state;
  const byPair = new GrowingWaits(limits.pairWait);
  const byAddress = new GrowingWaits(limits.addressWait);
  /** Where each station last logged in from: there a stranger's failures never refuse it. */
  const usual = new UsualAddresses();
  const addressOf = (client: { conn: object }) => state.addresses.get(client.conn) ?? 'unknown';

  // Keepalive 0 (none: a dead station would never be noticed) or past the limit: MQTT 3.1.1 has no
  // code for it, so the CONNACK says "identifier rejected" (2), as Mosquitto's max_keepalive does.
  // aedes's own answer (6) is no 3.1.1 code; its check is passed here and the login refuses.
  const badKeepalive = new WeakSet<object>();
  /** Connections whose login could not be checked: `verifyingTotal` others were (admission.ts). */
  const busy = new WeakSet<object>();
  aedes.preConnect = (client, packet, done) => {
    // The CONNECT is complete: from now on the connection waits for its check, never evicted.
    if (state.connectReceived && !state.connectReceived(client.conn)) busy.add(client);
    if (!packet.keepalive || packet.keepalive > limits.keepaliveLimitS) {
      badKeepalive.add(client);
      packet.keepalive = limits.keepaliveLimitS;
    }
    done(null, true);
  };

  aedes.authenticate = (client, username, password, done) => {
    if (busy.has(client)) return done(refusal(SERVER_UNAVAILABLE, 'busy'), false); // counted, not logged
    if (badKeepalive.has(client)) return done(refusal(IDENTIFIER_REJECTED, 'keepalive'), false);
    const address = addressOf(client);
    const at = now();
    const name = typeof username === 'string' ? username : '';
    const station = parseStationUsername(name);
    const pair = `${name}\n${address}`;
    // The station's usual address: whoever else fails there (a stranger behind the shop's NAT),
    // the station's own secret is still checked. Its secret (192 random bits) makes guessing
    // hopeless however fast; the waits only spare the broker lookups.
    const home = station !== null && usual.get(name) === address;
    const refuse = (reason: AuthFailure, count: { address: boolean; username: boolean }) => {
      let lockout = false;
      if (count.address && !home) lockout = byAddress.fail(address, at) || lockout;
      if (count.username && station) lockout = byPair.fail(pair, at) || lockout;
      emit({ type: 'station.auth_failed', reason, station, username: name, clientId: client.id, address, lockout });
      done(
        refusal(
          reason === 'badSecret' || reason === 'unknownStation' ? BAD_USERNAME_OR_PASSWORD : NOT_AUTHORIZED,
          reason,
        ),
        false,
      );
    };
    // An attempt that must still wait is refused before anything is looked up, and not counted
    // again (the wait would never end for a station that keeps retrying).
    if (!home && byAddress.waitMs(address, at) > 0) return refuseQuietly(done, 'throttledAddress');
    if (!station) return refuse('badUsername', { address: true, username: false });
    if (!home && byPair.waitMs(pair, at) > 0) return refuseQuietly(done, 'throttledPair');
    if (client.id !== name) return refuse('clientIdMismatch', { address: true, username: true });
    directory.secretHash(station.tenantId, station.sn).then(
      (hash) => {
        const ok = secretMatches(password, hash ?? DECOY_HASH) && hash !== null;
        if (!ok) return refuse(hash === null ? 'unknownStation' : 'badSecret', { address: true, username: true });
        byPair.clear(pair);
        usual.set(name, address);
        if (clients[client.id]) emit({ type: 'station.takeover', station, address });
        const session = { station, address, tokens: limits.publishBurst, refilledAt: at };
        sessions.set(client, session);
        streamSessions.set(client.conn, session);
        state.loggedIn?.(client.conn);
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
}
