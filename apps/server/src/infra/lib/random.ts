import { createHash, randomBytes } from 'node:crypto';

/** A fresh random secret as hex, for tokens and API keys. */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
