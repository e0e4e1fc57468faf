import { z } from 'zod';
import { FwVersion, HwCode, Sha256Hex } from './messages';

/*
 * The firmware file (docs/PROTOCOL.md §10): what the platform operator uploads and what a station
 * pulls as a blob. Layout: the 6 ASCII bytes `ESLFW1`, the header's length as a 16-bit big-endian
 * number, the header as UTF-8 JSON (FirmwareHeader), then exactly `size` bytes of payload whose
 * SHA-256 is `sha256`. Nothing may follow the payload. Hashing is the reader's job (this folder
 * leans on zod only): `readFirmwareFile` checks the layout and the header, the caller the hash.
 */

export const FIRMWARE_MAGIC = 'ESLFW1';
/** Largest header, bytes. */
export const FIRMWARE_HEADER_MAX = 4096;
/** Largest payload the platform stores, bytes. */
export const FIRMWARE_PAYLOAD_MAX = 16 * 1024 * 1024;

/** What a firmware file is for: a base station, its radio module, or tags. */
export const FIRMWARE_KINDS = ['station', 'module', 'tag'] as const;
export const FirmwareKind = z.enum(FIRMWARE_KINDS);
export type FirmwareKind = z.infer<typeof FirmwareKind>;

/** A station hardware model as its hello reports it (`hello.model`). */
const StationModel = z.string().min(1).max(64);

export const FirmwareHeader = z
  .object({
    kind: FirmwareKind,
    version: FwVersion.describe('the version the device reports once it runs this firmware'),
    models: z
      .array(StationModel)
      .max(64)
      .optional()
      .describe('station models it installs on (station and module firmware; required there)'),
    hw: z
      .array(HwCode)
      .max(256)
      .optional()
      .describe('tag hardware codes it installs on (tag firmware; required there)'),
    size: z.number().int().min(1).max(FIRMWARE_PAYLOAD_MAX).describe('bytes of payload after the header'),
    sha256: Sha256Hex.describe('SHA-256 of the payload, lower-case hex'),
    name: z.string().max(100).optional().describe('a name for people (the file name is used otherwise)'),
  })
  .superRefine((h, ctx) => {
    if (h.kind === 'tag') {
      if (!h.hw?.length) ctx.addIssue({ code: 'custom', path: ['hw'], message: 'tag firmware names its hardware' });
      if (h.models?.length) ctx.addIssue({ code: 'custom', path: ['models'], message: 'tag firmware has no models' });
    } else {
      if (!h.models?.length) {
        ctx.addIssue({ code: 'custom', path: ['models'], message: 'station firmware names its models' });
      }
      if (h.hw?.length) ctx.addIssue({ code: 'custom', path: ['hw'], message: 'station firmware has no tag hardware' });
    }
  })
  .describe('The JSON header of a firmware file.');
export type FirmwareHeader = z.infer<typeof FirmwareHeader>;

export type FirmwareFileError = 'magic' | 'header' | 'size';

export type ReadFirmware =
  | { ok: true; header: FirmwareHeader; payload: Uint8Array }
  | { ok: false; error: FirmwareFileError };

/** The layout and header of a firmware file; the payload's hash is left to the caller. */
export function readFirmwareFile(bytes: Uint8Array): ReadFirmware {
  if (bytes.length < FIRMWARE_MAGIC.length + 2) return { ok: false, error: 'magic' };
  for (let i = 0; i < FIRMWARE_MAGIC.length; i++) {
    if (bytes[i] !== FIRMWARE_MAGIC.charCodeAt(i)) return { ok: false, error: 'magic' };
  }
  const at = FIRMWARE_MAGIC.length;
  const length = (bytes[at] << 8) | bytes[at + 1];
  if (length === 0 || length > FIRMWARE_HEADER_MAX || at + 2 + length > bytes.length) {
    return { ok: false, error: 'header' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(at + 2, at + 2 + length)));
  } catch {
    return { ok: false, error: 'header' };
  }
  const header = FirmwareHeader.safeParse(parsed);
  if (!header.success) return { ok: false, error: 'header' };
  const payload = bytes.subarray(at + 2 + length);
  if (payload.length !== header.data.size) return { ok: false, error: 'size' };
  return { ok: true, header: header.data, payload };
}

/** A firmware file from its header (whose `size` and `sha256` the caller computed) and payload. */
export function encodeFirmwareFile(header: FirmwareHeader, payload: Uint8Array): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(FirmwareHeader.parse(header)));
  if (json.length > FIRMWARE_HEADER_MAX) throw new RangeError('firmware header too long');
  if (payload.length !== header.size) throw new RangeError('payload is not header.size bytes');
  const out = new Uint8Array(FIRMWARE_MAGIC.length + 2 + json.length + payload.length);
  for (let i = 0; i < FIRMWARE_MAGIC.length; i++) out[i] = FIRMWARE_MAGIC.charCodeAt(i);
  out[FIRMWARE_MAGIC.length] = json.length >> 8;
  out[FIRMWARE_MAGIC.length + 1] = json.length & 0xff;
  out.set(json, FIRMWARE_MAGIC.length + 2);
  out.set(payload, FIRMWARE_MAGIC.length + 2 + json.length);
  return out;
}

/** Whether a firmware file installs on this device: the station's model, or the tag's hardware code. */
export function firmwareFits(header: Pick<FirmwareHeader, 'kind' | 'models' | 'hw'>, device: string): boolean {
  return header.kind === 'tag' ? (header.hw ?? []).includes(device) : (header.models ?? []).includes(device);
}

/** The job kind that installs each firmware kind. */
export const FIRMWARE_JOB_KIND = { station: 'apfw', module: 'modulefw', tag: 'tagfw' } as const;
