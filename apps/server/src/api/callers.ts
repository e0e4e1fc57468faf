import { sha256Hex } from '../infra/lib/random';
import type { Caller, Services } from './context';
import { sessionExpired } from './errors';
import * as repo from './repository';
import { actingAs, parseRoles } from './roles';
import { TOKEN_PATTERN } from './token';

// "Who is calling": a session token → the signed-in user behind it. Below every module, so the
// API, the notice socket and any later gateway or worker authenticate the same way.

const MINUTE = 60_000;

/**
 * The caller behind a token, or code 800. Expiry slides with use, but the new expiry is only
 * written when it moved by more than a minute, so a burst of reads stays reads.
 */
export async function resolveCaller(
  services: Pick<Services, 'db' | 'config'>,
  token: string | undefined,
  now: number,
): Promise<Caller> {
  if (!token || !TOKEN_PATTERN.test(token)) throw sessionExpired();
  const id = sha256Hex(token);
  const row = await repo.findSession(services.db, id);
  if (!row) throw sessionExpired();
  if (Number(row.expires_at) <= now) {
    await repo.deleteSession(services.db, id);
    throw sessionExpired();
  }
  const expiresAt = now + services.config.sessionTtlHours * 3_600_000;
  if (expiresAt - Number(row.expires_at) > MINUTE) await repo.extendSession(services.db, id, expiresAt);
  const heldRoles = parseRoles(row.roles);
  const { roles, acting } = actingAs(heldRoles, row.role);
  return {
    sessionId: id,
    userId: row.user_id,
    username: row.username,
    name: row.name,
    introduction: row.introduction,
    avatarKey: row.avatar_key,
    roles,
    heldRoles,
    actingRole: acting,
    tenantId: row.tenant_id,
    tenantName: row.tenant_name ?? '',
    tenantCompany: row.tenant_company ?? '',
    storeId: row.store_id,
  };
}

/** The longest a session lookup is reused; a revocation is seen at once through the cache's generations. */
export const CALLER_TTL_MS = 30_000;
const SLIDE_MS = MINUTE;

/**
 * resolveCaller with its answer kept in the shared cache, keyed by the token's hash. Right after
 * resolveCaller the session runs at least until now + TTL − one minute (expiry slides and is
 * written when it moved by more than a minute), so the answer may be reused until then, at most
 * CALLER_TTL_MS, after which resolveCaller runs again and slides the expiry. Logout, a role or
 * store change, a user's deletion or password reset are change calls of the session's tenant and
 * end the entry at once (api/register.ts), in every process.
 */
export async function callerOf(services: Services, token: string | undefined, now: number): Promise<Caller> {
  const { cache, config } = services;
  const key = token ? `caller:${sha256Hex(token)}` : '';
  if (key) {
    const hit = cache.get<{ caller: Caller; until: number }>(key, Date.now());
    if (hit && hit.until > now) return hit.caller;
  }
  // The tenant is known only after reading, so count changes instead: any change meanwhile
  // (in any tenant) and the answer is not kept.
  const changes = cache.changes;
  const caller = await resolveCaller(services, token, now);
  if (key && cache.changes === changes) {
    // By the request clock (config.now), so the sliding expiry is written again at most
    // CALLER_TTL_MS later than without the cache.
    const ttl = Math.min(CALLER_TTL_MS, config.sessionTtlHours * 3_600_000 - SLIDE_MS);
    cache.set(key, { caller, until: now + ttl }, cache.stamp(caller.tenantId), Date.now(), ttl);
  }
  return caller;
}
