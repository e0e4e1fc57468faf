import { parseArgs } from 'node:util';
import type { BridgeOptions } from './bridge';

export const USAGE = `npm run bridge -- --ap http://HOST[:PORT] --url mqtt[s]://HOST:PORT --station TID.SN:SECRET [--ca FILE]

Drives OpenEPaperLink access points as one of the platform's base stations (docs/OEPL.md).

  --ap URL            an access point's address, http://HOST[:PORT] (port 80 by default);
                      repeatable: one station serving the tags of several APs
  --url URL           the broker: mqtt://HOST:1884 (the server's embedded one), or
                      mqtts://HOST:8884 for MQTT over TLS          [mqtt://127.0.0.1:1884]
  --station T.SN:SECRET
                      the base station this bridge is: tenant id, serial, the secret shown by
                      "add base station" (kind "OpenEPaperLink access point")
  --ca FILE           with mqtts://: PEM certificate(s) to trust instead of the system's (a
                      private CA or the broker's self-signed certificate); always verified
  --pace MS           pause between two uploads to an AP, ms                          [250]
  --max-queued N      uploads waiting at an AP at most (different tags)              [16]
  --tries N           tries of one image (uploads and transfers) before it fails       [3]
  --quiet             no log lines
  --help              this text

The bridge connects outbound only (it works behind a shop's NAT), holds each AP's WebSocket and
so sets stopsleep=0 on it, and sets the AP's clock.`;

export interface BridgeCli {
  options: Omit<BridgeOptions, 'log' | 'ca'> & { caFile?: string };
  quiet: boolean;
}

/** `T.SN:SECRET` → the station's identity. */
export function parseStation(text: string): BridgeOptions['station'] {
  const m = /^(\d+)\.([^:]+):(.+)$/.exec(text);
  if (!m) throw new Error(`--station takes TENANT.SERIAL:SECRET: ${text}`);
  return { tenantId: Number(m[1]), sn: m[2], secret: m[3] };
}

function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!(Number.isInteger(n) && n >= 0)) throw new Error(`${name} takes a whole number: ${text}`);
  return n;
}

export function parseCli(argv: string[]): BridgeCli | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      ap: { type: 'string', multiple: true },
      url: { type: 'string', default: 'mqtt://127.0.0.1:1884' },
      station: { type: 'string' },
      ca: { type: 'string' },
      pace: { type: 'string' },
      'max-queued': { type: 'string' },
      tries: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const aps = (values.ap ?? []).map((a) => {
    const u = new URL(a);
    if (u.protocol !== 'http:') throw new Error(`--ap takes http://HOST[:PORT] (the AP has no TLS): ${a}`);
    return `${u.protocol}//${u.host}`;
  });
  if (aps.length === 0) throw new Error('--ap is required');
  if (!values.station) throw new Error('--station is required');
  if (!/^mqtts?:\/\//.test(values.url)) throw new Error(`--url takes mqtt:// or mqtts://: ${values.url}`);
  return {
    options: {
      url: values.url,
      station: parseStation(values.station),
      aps,
      ...(values.ca ? { caFile: values.ca } : {}),
      oepl: {
        paceMs: positive('--pace', values.pace, 250),
        maxQueued: Math.max(1, positive('--max-queued', values['max-queued'], 16)),
        maxTries: Math.max(1, positive('--tries', values.tries, 3)),
      },
    },
    quiet: values.quiet,
  };
}
