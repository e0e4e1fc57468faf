import { LIMITS } from '@esl/contract/protocol';
import type { Aedes } from 'aedes';
import { mayPublish, mayReceive, maySubscribe } from './acl';
import type { BrokerState } from './state';

/*
 * What a logged-in station may do on the embedded broker: publish within its ACL, its message
 * size and its rate budget; subscribe to its own topics (at most QoS 1); receive only its own.
 * Connects, disconnects and connection errors of stations are reported.
 */

/** Sets the broker's `authorizePublish`, `authorizeSubscribe`, `authorizeForward` and its client listeners. */
export function installAuthorization(aedes: Aedes, state: BrokerState): void {
  const { limits, now, log, emit, sessions } = state;

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
}
