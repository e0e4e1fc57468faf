import { parseStationUsername } from '@esl/contract/protocol';
import type { Aedes, AuthenticateError } from 'aedes';
import { DECOY_HASH, type StationDirectory, secretMatches } from './directory';
import type { AuthFailure } from './events';
import type { BrokerState } from './state';
import { FailureThrottle } from './throttle';

/*
 * Station logins on the embedded broker: the username names the station (`{tid}.{sn}`, also its
 * client id), the password is checked against its secret's hash; failed logins are throttled per
 * address and per username, and a second login of a station takes over its session.
 */

/** CONNACK return codes of MQTT 3.1.1 (aedes maps them for MQTT 5). */
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;
const SERVER_UNAVAILABLE = 3;

function refusal(code: number, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: code }) as AuthenticateError;
}

function refuseQuietly(done: (e: AuthenticateError | null, ok: boolean | null) => void, reason: AuthFailure) {
  done(refusal(NOT_AUTHORIZED, reason), false);
}

/** Sets the broker's `authenticate`. */
export function installLogin(aedes: Aedes, state: BrokerState, directory: StationDirectory): void {
  const { limits, now, log, emit, sessions, streamSessions, clients } = state;
  const byAddress = new FailureThrottle(limits.addressFailures, limits.addressWindowMs);
  const byUsername = new FailureThrottle(limits.usernameFailures, limits.usernameWindowMs);
  const addressOf = (client: { conn: object }) => state.addresses.get(client.conn) ?? 'unknown';

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
    directory.secretHash(station.tenantId, station.sn).then(
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
}
