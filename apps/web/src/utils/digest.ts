import { sha256 } from 'js-sha256';

/**
 * The SHA-256 hex digest the console sends instead of a typed password (DESIGN.md §4).
 * Computed in JavaScript because crypto.subtle is missing on plain-HTTP LAN addresses.
 */
export function digestPassword(plain: string): string {
  return sha256(plain);
}
