import { parseTopic, type StationKey, stationRoot } from '@esl/contract/protocol';

/*
 * What a station may do on the broker (DELIVERY.md §4.3), as pure decisions. The embedded broker
 * asks these; the Mosquitto dynamic-security roles and the EMQX HTTP ACL must say the same.
 */

export type Denial = 'foreignTopic' | 'notAStationTopic' | 'retain' | 'qos' | 'wildcard';

/** A station publishes only its own `status` (retained allowed) and `up/…` (never retained), QoS ≤ 1. */
export function mayPublish(
  station: StationKey,
  topic: string,
  flags: { readonly qos: number; readonly retain: boolean },
): Denial | null {
  if (topic.includes('+') || topic.includes('#')) return 'wildcard';
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
