import { ErrorCode, NONCE_PATTERN, OPEN_HEADERS, OPEN_WINDOW_MS } from '@esl/contract';
import type { FastifyRequest } from 'fastify';
import type { Services } from '../api/context';
import { AppError } from '../api/errors';
import { isUniqueViolation } from '../infra/db/unique';
import { verify } from '../infra/lib/signature';
import * as repo from './repository';

/** The key behind a signed call: the tenant it names. */
export interface OpenKey {
  tenantId: number;
  ck: string;
  tenantName: string;
  tenantCompany: string;
}

const RATE_WINDOW_MS = 60_000;

function header(request: FastifyRequest, name: string): string {
  const v = request.headers[name];
  return typeof v === 'string' ? v.trim() : '';
}

/**
 * Checks a signed call, in an order that tells a caller no more than it needs: the key (1016),
 * the timestamp (1018), the signature over method, path, timestamp, nonce and body (1017), the
 * key's rate (1020), then the nonce (1019), which is kept only once everything else passed, so
 * an unsigned request cannot use up a caller's nonces. Nothing of sk or the signature is logged.
 */
export async function authenticate(services: Services, request: FastifyRequest, body: Buffer): Promise<OpenKey> {
  const { db, config } = services;
  const ck = header(request, OPEN_HEADERS.key);
  const tenant = ck && ck.length <= 64 ? await repo.findTenantByCk(db, ck) : undefined;
  if (!tenant) throw new AppError(ErrorCode.OPEN_KEY_INVALID);

  const now = config.now();
  const timestamp = header(request, OPEN_HEADERS.timestamp);
  if (!/^\d{1,15}$/.test(timestamp) || Math.abs(now - Number(timestamp)) > OPEN_WINDOW_MS) {
    throw new AppError(ErrorCode.OPEN_TIMESTAMP_INVALID);
  }

  const nonce = header(request, OPEN_HEADERS.nonce);
  const signature = header(request, OPEN_HEADERS.signature);
  const parts = { method: request.method, path: request.url, timestamp, nonce, body };
  if (!NONCE_PATTERN.test(nonce) || !verify(tenant.sk, parts, signature)) {
    throw new AppError(ErrorCode.OPEN_SIGNATURE_INVALID);
  }

  const rate = await repo.callsSince(db, tenant.id, now - RATE_WINDOW_MS);
  if (rate.count >= config.openRateLimitPerMinute) {
    const wait = Math.max(1, Math.ceil(((rate.first ?? now) + RATE_WINDOW_MS - now) / 1000));
    throw new AppError(ErrorCode.OPEN_RATE_LIMITED, { detail: String(wait) }, null, wait);
  }

  // A nonce must outlive every timestamp that could still pass with it: twice the window.
  await repo.dropNonces(db, tenant.id, now - 2 * OPEN_WINDOW_MS);
  try {
    await repo.insertNonce(db, tenant.id, nonce, now);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(ErrorCode.OPEN_NONCE_REPLAYED);
    throw err;
  }
  return { tenantId: tenant.id, ck: tenant.ck, tenantName: tenant.name, tenantCompany: tenant.company };
}
