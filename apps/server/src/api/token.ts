import type { FastifyRequest } from 'fastify';

/** A session token: 32 random bytes, hex. The database keeps only its SHA-256. */
export const TOKEN_PATTERN = /^[0-9a-f]{64}$/;

/** The token from the `token` header or `Authorization: Bearer`, if any. */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.token;
  if (typeof header === 'string' && header) return header;
  const auth = request.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim();
  return undefined;
}
