import { createHash } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** argon2id cost; the hash records it, so verifying works whatever cost a hash was made with. */
export interface PasswordCost {
  /** KiB of memory. */
  memoryCost: number;
  timeCost: number;
}

/** The OWASP baseline for argon2id (also @node-rs/argon2's default): 19 MiB, 2 passes, 1 lane. */
export const PRODUCTION_COST: PasswordCost = { memoryCost: 19_456, timeCost: 2 };

/** The stored form of a password: argon2id over the client's SHA-256 hex digest (DESIGN.md §4). */
export function hashPassword(digest: string, cost: PasswordCost = PRODUCTION_COST): Promise<string> {
  return hash(digest.toLowerCase(), { ...cost, parallelism: 1 });
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

const decoys = new Map<string, Promise<string>>();
/** A hash to verify against when the user does not exist, so both answers take as long. */
export function decoyHash(cost: PasswordCost): Promise<string> {
  const key = `${cost.memoryCost}/${cost.timeCost}`;
  let decoy = decoys.get(key);
  if (!decoy) {
    decoy = hashPassword(clientDigest('no such user'), cost);
    decoys.set(key, decoy);
  }
  return decoy;
}
