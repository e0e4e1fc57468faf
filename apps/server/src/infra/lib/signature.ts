import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { signingText } from '@esl/contract';

/** SHA-256 of the raw body bytes as lower-case hex (the empty body hashes the empty string). */
export function bodyHash(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('hex');
}

export interface SignedParts {
  method: string;
  /** The path as sent, query included. */
  path: string;
  timestamp: string;
  nonce: string;
  body: Buffer | string;
}

/** The signature a caller holding `sk` makes for a request (docs/INTEGRATION.md). */
export function sign(sk: string, parts: SignedParts): string {
  const text = signingText(parts.method, parts.path, parts.timestamp, parts.nonce, bodyHash(parts.body));
  return createHmac('sha256', sk).update(text).digest('hex');
}

const HEX_64 = /^[0-9a-fA-F]{64}$/;

/**
 * Whether `signature` (hex) is the HMAC of the request under `sk`. The comparison takes the same
 * time wherever the first difference is, so a caller cannot find the signature byte by byte.
 */
export function verify(sk: string, parts: SignedParts, signature: string): boolean {
  if (!HEX_64.test(signature)) return false;
  const expected = Buffer.from(sign(sk, parts), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
