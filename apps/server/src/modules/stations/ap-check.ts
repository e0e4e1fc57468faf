import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { ApTestFailure, TestStationApData } from '@esl/contract';
import { AP_POLICY, guardedLookup, type Resolver, refusal, systemResolver } from '../../infra/lib/address';

/*
 * "Test connection" of an OpenEPaperLink station (SSRF, docs/OEPL.md "Security"): the server reads
 * one fixed path, GET /sysinfo, of an http or https address a station writer typed. An AP lives in
 * the shop's LAN, so private and loopback addresses are allowed (AP_POLICY); reserved ones — link-
 * local and cloud metadata, multicast, this machine's own addresses — are refused before any
 * connection, and the socket connects to the address that was checked. No redirect is followed, at
 * most 64 KiB is read, 3 s at most, and the answer carries only a few short fields of the reply
 * (never its body), so the call cannot be used to read other services.
 */

export const AP_TEST_TIMEOUT_MS = 3000;
const MAX_BYTES = 64 * 1024;

/** A short printable text of the reply, '' when absent. */
function field(v: unknown): string {
  if (typeof v !== 'string' && typeof v !== 'number') return '';
  return String(v)
    .replace(/[^\x20-\x7e]/g, '')
    .slice(0, 64);
}

/** Whether the host of `origin` is a refused address (an IP literal, or a name that resolves to one). */
export async function apAddressRefused(origin: string, resolver: Resolver = systemResolver): Promise<boolean> {
  const host = new URL(origin).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolver(host);
    } catch {
      return false; // not resolvable now: the bridge keeps trying; the connection is checked then too
    }
  }
  return addresses.some((a) => refusal(a, AP_POLICY) !== null);
}

type Found = Omit<TestStationApData, 'apUrl' | 'ms'>;
const failed = (failure: ApTestFailure, status: number | null = null): Found => ({
  ok: false,
  failure,
  status,
  alias: '',
  firmware: '',
  env: '',
});

function failureOf(err: NodeJS.ErrnoException): ApTestFailure {
  switch (err.code) {
    case 'ECALLBACKADDRESS':
      return 'address';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return 'unresolved';
    case 'ECONNREFUSED':
      return 'refused';
    case 'ETIMEDOUT':
      return 'timeout';
    default:
      return 'unreachable';
  }
}

/** The parsed /sysinfo reply: an OEPL AP names its build (`buildversion`) or its board (`env`). */
function parseSysinfo(text: string): Found {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return failed('notOepl');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return failed('notOepl');
  const o = json as Record<string, unknown>;
  const firmware = field(o.buildversion ?? o.ap_version);
  const env = field(o.env);
  if (!firmware && !env) return failed('notOepl');
  return { ok: true, failure: null, status: 200, alias: field(o.alias), firmware, env };
}

/** Reads `${origin}/sysinfo` as described above; never throws. */
export async function testAccessPoint(
  origin: string,
  o: { timeoutMs?: number; resolver?: Resolver; now?: () => number } = {},
): Promise<TestStationApData> {
  const now = o.now ?? Date.now;
  const started = now();
  const done = (found: Found): TestStationApData => ({ ...found, apUrl: origin, ms: Math.max(0, now() - started) });
  if (await apAddressRefused(origin, o.resolver)) return done(failed('address'));
  const url = new URL('/sysinfo', origin);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const found = await new Promise<Found>((resolve) => {
    const req = request(url, {
      method: 'GET',
      lookup: guardedLookup(AP_POLICY, o.resolver) as never,
      headers: { accept: 'application/json' },
      timeout: o.timeoutMs ?? AP_TEST_TIMEOUT_MS,
    });
    const timer = setTimeout(() => {
      req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' }));
    }, o.timeoutMs ?? AP_TEST_TIMEOUT_MS);
    const finish = (f: Found) => {
      clearTimeout(timer);
      resolve(f);
    };
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => finish(failed(failureOf(err))));
    req.on('response', (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        res.resume();
        finish(failed('http', res.statusCode ?? null));
        req.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BYTES) {
          finish(failed('notOepl'));
          req.destroy();
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => finish(parseSysinfo(Buffer.concat(chunks).toString('utf8'))));
      res.on('error', (err: NodeJS.ErrnoException) => finish(failed(failureOf(err))));
    });
    req.end();
  });
  return done(found);
}
