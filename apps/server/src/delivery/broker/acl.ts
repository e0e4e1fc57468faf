import { parseTopic, type StationKey, stationRoot } from '@esl/contract/protocol';

/*
 * What a station may do on the broker (DELIVERY.md §4.3), as pure decisions. The embedded broker
 * asks these; the Mosquitto dynamic-security roles and the EMQX HTTP ACL must say the same.
 */

export type Denial = 'foreignTopic' | 'notAStationTopic' | 'retain' | 'qos' | 'wildcard';

/**
 * A station publishes only its own `status` (retained allowed) and `up/…` (never retained), QoS ≤ 1.
 * Any name under its own `up/` passes, as Mosquitto's `up/#` role lets it: the server drops a name
 * it does not know (counted), so a newer station's new message does not cost it its connection.
 */
export function mayPublish(
  station: StationKey,
  topic: string,
  flags: { readonly qos: number; readonly retain: boolean },
): Denial | null {
  if (topic.includes('+') || topic.includes('#')) return 'wildcard';
  if (topic.includes('\u0000')) return 'notAStationTopic';
  const up = `${stationRoot(station)}/up/`;
  if (topic.startsWith(up) && topic.length > up.length) {
    if (flags.qos > 1) return 'qos';
    return flags.retain ? 'retain' : null;
  }
  const parsed = parseTopic(topic);
  if (!parsed || parsed.kind === 'down') return 'notAStationTopic';
  if (parsed.tenantId !== station.tenantId || parsed.sn !== station.sn) return 'foreignTopic';
  if (flags.qos > 1) return 'qos';
  if (flags.retain && parsed.kind !== 'status') return 'retain';
  return null;
}

/**
 * A station subscribes only under its own `down/`: `down/#`, `down/+` or an exact down topic.
 * Compared as text against its own prefix, so no wildcard can reach another level.
 */
export function maySubscribe(station: StationKey, filter: string): Denial | null {
  const prefix = `${stationRoot(station)}/down`;
  // U+0000 is not allowed in an MQTT topic or filter [MQTT-4.7.3-2].
  if (filter.includes('\u0000')) return 'notAStationTopic';
  if (filter === `${prefix}/#`) return null;
  if (!filter.startsWith(`${prefix}/`)) return 'foreignTopic';
  const rest = filter.slice(prefix.length + 1);
  if (rest.length === 0) return 'notAStationTopic';
  const levels = rest.split('/');
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i];
    if (level === '#' && i !== levels.length - 1) return 'wildcard';
    if ((level.includes('#') || level.includes('+')) && level.length !== 1) return 'wildcard';
  }
  return null;
}

/** Defence in depth: a station is handed only messages under its own `down/`. */
export function mayReceive(station: StationKey, topic: string): boolean {
  return topic.startsWith(`${stationRoot(station)}/down/`);
}
