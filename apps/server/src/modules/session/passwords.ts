import { createHash } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2 defaults to argon2id (m = 19 MiB, t = 2, p = 1), the OWASP baseline.

/** The stored form of a password: argon2id over the client's SHA-256 hex digest (DESIGN.md §4). */
export function hashPassword(digest: string): Promise<string> {
  return hash(digest.toLowerCase());
}

export async function verifyPassword(stored: string, digest: string): Promise<boolean> {
  try {
    return await verify(stored, digest.toLowerCase());
  } catch {
    return false;
  }
}

/** What the console sends for a typed password; used by the demo seed and tests. */
export function clientDigest(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('hex');
}

let decoy: Promise<string> | undefined;
/** A hash to verify against when the user does not exist, so both answers take as long. */
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(clientDigest('no such user'));
  return decoy;
}
