import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Where the broker looks stations up. The server implements it over the `stations` table
 * (`secret_hash`, issued by /mgr/ap/add); tests pass a map. Nothing in the broker touches the
 * database directly.
 */
export interface StationDirectory {
  /** SHA-256 (hex) of the station's MQTT secret, or null when the tenant has no such station. */
  secretHash(tenantId: number, sn: string): Promise<string | null>;
}

/** Compares a presented secret with a stored hash in constant time. */
export function secretMatches(password: Buffer | undefined, secretHashHex: string): boolean {
  const presented = createHash('sha256')
    .update(password ?? Buffer.alloc(0))
    .digest();
  const stored = Buffer.from(secretHashHex, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

/** A hash no secret has: unknown stations cost the same comparison as known ones. */
export const DECOY_HASH = createHash('sha256').update('esl-no-such-station').digest('hex');
