import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/*
 * Where the server may send a request (SSRF). A callback URL names the tenant's own server; it must not reach
 * this server, its network's private addresses or a cloud metadata service. The host is resolved
 * and every address checked when the URL is saved, and again for each delivery, at the moment the
 * connection is made (the socket connects to the address that was checked: a name that resolves
 * to a public address at saving and to 127.0.0.1 later is refused then). An OpenEPaperLink access
 * point lives in the shop's LAN, so its address may be private or loopback (AP_POLICY) but never
 * reserved: link-local and cloud metadata (169.254/16, fe80::/10), multicast and the like.
 */

/** What the server lets callbacks reach beyond the public Internet (both off by default). */
export interface AddressPolicy {
  /** 127.0.0.0/8 and ::1 (CALLBACK_ALLOW_LOOPBACK; for tests with a receiver on this machine). */
  allowLoopback: boolean;
  /** 10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7 (CALLBACK_ALLOW_PRIVATE; a receiver in the same LAN). */
  allowPrivate: boolean;
}

export const STRICT: AddressPolicy = { allowLoopback: false, allowPrivate: false };
/** An access point's address (modules/stations/ap-check.ts): the LAN and this machine, never reserved ranges. */
export const AP_POLICY: AddressPolicy = { allowLoopback: true, allowPrivate: true };

const never = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches the local host
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  never.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['64:ff9b::', 96], // NAT64 (embeds any IPv4 address)
  ['2002::', 16], // 6to4 (embeds any IPv4 address)
] as const)
  never.addSubnet(net, bits, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const privateNets = new BlockList();
for (const [net, bits] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10], // carrier-grade NAT
] as const)
  privateNets.addSubnet(net, bits, 'ipv4');
privateNets.addSubnet('fc00::', 7, 'ipv6');

/** This machine's own addresses other than loopback (a callback to them reaches this server). */
function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (!a.internal) out.add(a.address.toLowerCase());
  }
  return out;
}

/** Why an address is refused ('loopback', 'private', 'reserved', 'self'), or null when it may be reached. */
export function refusal(address: string, policy: AddressPolicy): string | null {
  let ip = address.toLowerCase().replace(/^\[|\]$/g, '');
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) ip = mapped[1] as string;
  const family = isIP(ip);
  if (family === 0) return 'reserved';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (family === 6 && /^::ffff:[0-9a-f]+:[0-9a-f]+$/.test(ip)) return 'reserved'; // mapped, hex form
  if (never.check(ip, type)) return 'reserved';
  if (loopback.check(ip, type)) return policy.allowLoopback ? null : 'loopback';
  if (ownAddresses().has(ip)) return 'self';
  if (privateNets.check(ip, type)) return policy.allowPrivate ? null : 'private';
  return null;
}

const LOOPBACK_NAMES = /^(localhost|127(\.\d+){3}|::1|\[::1\])$/i;

function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/**
 * Whether `url` is this server, as its public address names it (PUBLIC_URL): the same host name,
 * or, for a loopback name (a test server and its receiver share 127.0.0.1), the same host and port.
 */
export function isSelf(url: URL, selfUrls: readonly string[]): boolean {
  return selfUrls.some((raw) => {
    let self: URL;
    try {
      self = new URL(raw);
    } catch {
      return false;
    }
    if (self.hostname.toLowerCase() !== url.hostname.toLowerCase()) return false;
    return !LOOPBACK_NAMES.test(url.hostname) || portOf(self) === portOf(url);
  });
}

/** A callback URL refused, with a reason a tenant can act on (the console names each). */
export class CallbackUrlError extends Error {
  constructor(readonly reason: 'format' | 'scheme' | 'credentials' | 'unresolved' | 'address') {
    super(`callback URL refused: ${reason}`);
    this.name = 'CallbackUrlError';
  }
}

export type Resolver = (host: string) => Promise<string[]>;

/** Every address a host name resolves to (IPv4 and IPv6). */
export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve((addresses as LookupAddress[]).map((a) => a.address)),
    ),
  );

/** The URL, parsed, when its form is acceptable (http or https, no user name or password in it). */
export function parseCallbackUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CallbackUrlError('format');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CallbackUrlError('scheme');
  if (url.username || url.password) throw new CallbackUrlError('credentials');
  if (!url.hostname) throw new CallbackUrlError('format');
  return url;
}

/**
 * Checks a URL as it is saved: its form, then every address its host resolves to. Throws
 * CallbackUrlError; answers the URL, normalised.
 */
export async function checkCallbackUrl(
  raw: string,
  policy: AddressPolicy,
  resolver: Resolver = systemResolver,
  selfUrls: readonly string[] = [],
): Promise<string> {
  const url = parseCallbackUrl(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isSelf(url, selfUrls)) throw new CallbackUrlError('address');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolver(host);
    } catch {
      throw new CallbackUrlError('unresolved');
    }
  }
  if (addresses.length === 0) throw new CallbackUrlError('unresolved');
  if (addresses.some((a) => refusal(a, policy) !== null)) throw new CallbackUrlError('address');
  return url.toString();
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that resolves the host and refuses the connection when any of its
 * addresses is refused: the socket then connects to an address that was checked (no rebinding
 * between the check and the connection).
 */
export function guardedLookup(policy: AddressPolicy, resolver: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolver(hostname).then(
      (addresses) => {
        const bad = addresses.length === 0 || addresses.some((a) => refusal(a, policy) !== null);
        if (bad) {
          const err: NodeJS.ErrnoException = new CallbackUrlError('address');
          err.code = 'ECALLBACKADDRESS';
          callback(err, options.all ? [] : '');
          return;
        }
        const list = addresses.map((address) => ({ address, family: isIP(address) }));
        if (options.all) callback(null, list);
        else callback(null, (list[0] as LookupAddress).address, (list[0] as LookupAddress).family);
      },
      (err: NodeJS.ErrnoException) => callback(err, options.all ? [] : ''),
    );
  };
}
