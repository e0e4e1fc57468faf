import { createHash } from 'node:crypto';
import { contentHash, decodePacked } from '@esl/labels';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** True when `bytes` decode to an image whose content hash is `hash` (docs/PROTOCOL.md 5.4). */
export function imageMatches(bytes: Uint8Array, hash: string): boolean {
  try {
    const { header, packed } = decodePacked(bytes);
    return contentHash(packed, header, sha256) === hash;
  } catch {
    return false;
  }
}
