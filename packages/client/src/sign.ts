// Request signing as the server checks it (docs/INTEGRATION.md, "Signing a call"): HMAC-SHA256
// keyed with sk over METHOD\nPATH\nTIMESTAMP\nNONCE\nSHA256(body), lower-case hex. Web Crypto
// only (Node.js 20+, Deno, Bun, browsers), so the package needs nothing else.

export interface SignedParts {
  method: string;
  /** The path as requested, query string included (e.g. `/open/v1/stores/list`). */
  path: string;
  /** Unix milliseconds, as sent in the timestamp header. */
  timestamp: string;
  nonce: string;
  /** The body exactly as sent: its text or bytes. */
  body: string | Uint8Array;
}

const encoder = new TextEncoder();
/** The bytes to hash, in a buffer of their own (what Web Crypto takes). */
const bytes = (data: string | Uint8Array): Uint8Array<ArrayBuffer> =>
  typeof data === 'string' ? new Uint8Array(encoder.encode(data)) : new Uint8Array(data);

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** SHA-256 of the bytes as lower-case hex (the empty body hashes the empty string). */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', bytes(data)));
}

/** The text a signature covers: five lines joined by `\n`, no newline at the end. */
export async function signingText(parts: SignedParts): Promise<string> {
  return [parts.method.toUpperCase(), parts.path, parts.timestamp, parts.nonce, await sha256Hex(parts.body)].join('\n');
}

/** The signature header's value for a request: hex HMAC-SHA256 of the signing text keyed with sk. */
export async function sign(sk: string, parts: SignedParts): Promise<string> {
  const key = await crypto.subtle.importKey('raw', bytes(sk), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(await crypto.subtle.sign('HMAC', key, bytes(await signingText(parts))));
}

/** A fresh nonce: 32 random hex characters (the server takes 16–64 of A–Z a–z 0–9 _ -). */
export function newNonce(): string {
  return hex(crypto.getRandomValues(new Uint8Array(16)).buffer);
}

/**
 * Whether a callback the server sent (signed the same way with the tenant's key pair) carries a
 * valid signature: `path` is the request's path and query, `body` its raw bytes. The comparison
 * takes the same time wherever the first difference is.
 */
export async function verifySignature(sk: string, parts: SignedParts, signature: string): Promise<boolean> {
  const expected = await sign(sk, parts);
  const given = signature.toLowerCase();
  if (given.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return diff === 0;
}
