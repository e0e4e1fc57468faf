import { createHash } from 'node:crypto';
import {
  encodeFirmwareFile,
  type FirmwareHeader,
  type FirmwareKind,
  type Job,
  type JobKind,
  readFirmwareFile,
} from '@esl/contract/protocol';

/*
 * The station side of firmware upgrades (docs/PROTOCOL.md §5.12, §10): which jobs are firmware,
 * how a pulled file is checked (SHA-256 of the file = the job's hash, then the header and the
 * payload's own SHA-256), and the faults a test can ask for — a corrupted chunk, a connection
 * lost halfway through a pull, a device that comes back on its old firmware.
 */

export const FIRMWARE_JOB_KINDS: readonly JobKind[] = ['apfw', 'modulefw', 'tagfw'];

export type FirmwareJob = Extract<Job, { kind: 'apfw' | 'modulefw' | 'tagfw' }>;

export const isFirmwareJob = (job: Job): job is FirmwareJob => FIRMWARE_JOB_KINDS.includes(job.kind);

/** What a station with firmware support does wrong on purpose (each fault happens once). */
export interface FirmwareFaults {
  /** Flips a byte of the chunk received at this offset: the file's check fails (`badBlob`). */
  corruptChunkAt?: number;
  /** Loses the connection once a pull holds this share (0–1) of its file; it resumes from there. */
  disconnectAt?: number;
  /** Installs, restarts and comes back on its old firmware (station and module upgrades). */
  rollBack?: boolean;
  /** Tags (hardware ids) that keep their old firmware after a transfer. */
  rollBackTags?: readonly string[];
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The header of a pulled firmware file when it is the file the job named and is whole; else null. */
export function checkFirmwareBlob(blob: Uint8Array, hash: string): FirmwareHeader | null {
  if (sha256(blob) !== hash) return null;
  const read = readFirmwareFile(blob);
  if (!read.ok || sha256(read.payload) !== read.header.sha256) return null;
  return read.header;
}

/** The faults still to happen, and what the station pulled (for tests). */
export class FirmwarePlan {
  private corrupted = false;
  private disconnected = false;
  /** Offsets asked for, in order, with the connection count at the time. */
  readonly requested: Array<{ hash: string; offset: number; connect: number }> = [];

  constructor(readonly faults: FirmwareFaults = {}) {}

  /** The chunk as the station stores it: once, at `corruptChunkAt`, with a byte flipped. */
  chunk(offset: number, bytes: Uint8Array): Uint8Array {
    if (this.corrupted || this.faults.corruptChunkAt !== offset || bytes.length === 0) return bytes;
    this.corrupted = true;
    const copy = bytes.slice();
    copy[0] ^= 0xff;
    return copy;
  }

  /** True once, when a pull first holds `disconnectAt` of its file. */
  disconnectNow(have: number, size: number): boolean {
    const at = this.faults.disconnectAt;
    if (at === undefined || this.disconnected || have < at * size || have >= size) return false;
    this.disconnected = true;
    return true;
  }

  rollsBackTag(id: string): boolean {
    return this.faults.rollBackTags?.includes(id) ?? false;
  }
}

export interface FirmwareFileSpec {
  kind: FirmwareKind;
  version: string;
  /** Station models (station and module firmware). */
  models?: string[];
  /** Tag hardware codes (tag firmware). */
  hw?: string[];
  /** Payload bytes; made up (deterministic for the version) when left out. */
  payload?: Uint8Array;
  /** Size of a made-up payload (64 KiB). */
  size?: number;
  name?: string;
}

/** Builds a valid firmware file (tests, the demo, `npm run fwfile`). */
export function buildFirmwareFile(spec: FirmwareFileSpec): Uint8Array {
  const payload = spec.payload ?? madeUpPayload(`${spec.kind} ${spec.version}`, spec.size ?? 64 * 1024);
  const header: FirmwareHeader = {
    kind: spec.kind,
    version: spec.version,
    ...(spec.kind === 'tag' ? { hw: spec.hw ?? [] } : { models: spec.models ?? [] }),
    size: payload.length,
    sha256: sha256(payload),
    ...(spec.name ? { name: spec.name } : {}),
  };
  return encodeFirmwareFile(header, payload);
}

/** Bytes that look like a binary (not compressible to nothing), the same for the same seed. */
function madeUpPayload(seed: string, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let block = createHash('sha256').update(seed).digest();
  for (let i = 0; i < size; i += block.length) {
    out.set(block.subarray(0, Math.min(block.length, size - i)), i);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}
