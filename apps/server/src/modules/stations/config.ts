import { type ConfigState, type StationConfig, StationConfigFields } from '@esl/contract';
import type { StationConfigMsg } from '@esl/contract/protocol';

/*
 * A station's desired configuration: kept as JSON beside the WiFi password (write-only, its own
 * column), sent as `down/config` (DELIVERY.md §4.2) with the revision the station reports back.
 */

/** The stored JSON read back; a missing or unreadable value reads as the defaults. */
export function readConfig(json: string): StationConfigFields {
  if (!json) return StationConfigFields.parse({});
  try {
    const parsed = StationConfigFields.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : StationConfigFields.parse({});
  } catch {
    return StationConfigFields.parse({});
  }
}

/** What answers show: the password only as "set or not". */
export function presentConfig(json: string, wifiPassword: string): StationConfig {
  return { ...readConfig(json), wifiPasswordSet: wifiPassword !== '' };
}

export function configState(rev: number, applied: number | null): ConfigState {
  if (!rev) return 'none';
  return applied === rev ? 'applied' : 'pending';
}

/** The `down/config` message; empty settings are left out, so the station keeps its own. */
export function configMessage(c: StationConfigFields, rev: number, wifiPassword: string): StationConfigMsg {
  return {
    v: 1,
    cfgRev: rev,
    ...(c.wifiSsid ? { wifi: { ssid: c.wifiSsid, password: wifiPassword } } : {}),
    ...(c.ntpServers.length ? { ntp: c.ntpServers } : {}),
    ip: c.ipMode === 'static' ? { mode: 'static', addr: c.ip, mask: c.mask, gw: c.gateway } : { mode: 'dhcp' },
    ...(c.serverHost && c.serverPort ? { server: { host: c.serverHost, port: c.serverPort } } : {}),
    ...(c.upgradeUrl ? { upgradeUrl: c.upgradeUrl } : {}),
    heartbeatS: c.heartbeatS,
    reportS: c.reportS,
  };
}
