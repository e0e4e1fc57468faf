import { createHash } from 'node:crypto';
import { type FirmwareHeader, readFirmwareFile } from '@esl/contract/protocol';

/** A firmware file that checked out: its header, the SHA-256 of the whole file, and of its payload. */
export interface CheckedFirmware {
  header: FirmwareHeader;
  hash: string;
  payloadHash: string;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Checks a firmware file by its content, never by its name: the magic, the header against its
 * schema, the payload's length and SHA-256 (docs/PROTOCOL.md §10). Null for anything else.
 */
export function checkFirmwareFile(bytes: Uint8Array): CheckedFirmware | null {
  const read = readFirmwareFile(bytes);
  if (!read.ok) return null;
  const payloadHash = sha256(read.payload);
  if (payloadHash !== read.header.sha256) return null;
  return { header: read.header, hash: sha256(bytes), payloadHash };
}

/** The stored kind (`firmware.kind`) of a header's kind. */
export const STORED_KIND = { station: 'ap', module: 'module', tag: 'tag' } as const;
