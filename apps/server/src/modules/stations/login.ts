import { isIP } from 'node:net';
import type { StationLogin } from '@esl/contract';
import type { StationKey } from '@esl/contract/protocol';
import type { BrokerAddresses } from '../../api/station-broker';

/*
 * Where a base station logs in, said with its secret (issue 27 item 10): the person setting a
 * station up is shown the broker's address, the TLS one when there is one, and the user name,
 * rather than having to find the server's start banner. The server works it out; the console
 * only shows it.
 */

const DEFAULT_PORTS: Record<string, string> = { 'mqtt:': '1883', 'mqtts:': '8883' };

/** `host:port` of an MQTT URL (the default port of its scheme when it names none); null when it is not one. */
function hostPort(url: string, host?: string): { scheme: string; address: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const port = parsed.port || DEFAULT_PORTS[parsed.protocol];
  if (!port) return null;
  const name = host ?? parsed.hostname;
  // An IPv6 address keeps its brackets before the port.
  const shown = isIP(name.replace(/^\[|\]$/g, '')) === 6 ? `[${name.replace(/^\[|\]$/g, '')}]` : name;
  return { scheme: parsed.protocol, address: `${shown}:${port}` };
}

/** A host name or address that only this machine reaches. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || /^127\./.test(bare);
}

/**
 * How `station` logs in: the broker's addresses from MQTT_PUBLIC_URL when the operator gave it;
 * else the listener's own address, where a broker listening on every address is reached at
 * `serverHost`, the host name the console reached this server by (PUBLIC_URL's, or the request's).
 * `broker` null: the server runs no station broker.
 */
export function stationLogin(broker: BrokerAddresses | null, serverHost: string, station: StationKey): StationLogin {
  const username = `${station.tenantId}.${station.sn}`;
  if (!broker) return { address: null, tlsAddress: null, username, localOnly: false };
  const stated = broker.publicUrls.length > 0;
  const urls = stated ? broker.publicUrls : [broker.url, ...(broker.tlsUrl ? [broker.tlsUrl] : [])];
  const host = !stated && broker.anyHost ? serverHost : undefined;
  let address: string | null = null;
  let tlsAddress: string | null = null;
  for (const url of urls) {
    const at = hostPort(url, host);
    if (at?.scheme === 'mqtt:') address ??= at.address;
    if (at?.scheme === 'mqtts:') tlsAddress ??= at.address;
  }
  const shown = address ?? tlsAddress;
  const localOnly = shown !== null && isLoopback(shown.slice(0, shown.lastIndexOf(':')));
  return { address, tlsAddress, username, localOnly };
}
