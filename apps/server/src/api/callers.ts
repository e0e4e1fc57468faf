import { sha256Hex } from '../lib/random';
import { resolveCaller } from '../modules/session/service';
import type { Caller, Services } from './context';

/** The longest a session lookup is reused; a revocation is seen at once through the cache's generations. */
export const CALLER_TTL_MS = 30_000;
const SLIDE_MS = 60_000;

/**
 * resolveCaller with its answer kept in the shared cache, keyed by the token's hash. Right after
 * resolveCaller the session runs at least until now + TTL − one minute (expiry slides and is
 * written when it moved by more than a minute), so the answer may be reused until then, at most
 * CALLER_TTL_MS, after which resolveCaller runs again and slides the expiry. Logout, a role or store change, a user's deletion or password reset are change
 * calls of the session's tenant and end the entry at once (register.ts), in every process.
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
