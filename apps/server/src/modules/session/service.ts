import { type PdaConfigData, permissionsOf, type Role } from '@esl/contract';
import { type CallContext, publicBase, requireCaller, requireTenant } from '../../api/context';
import { forbidden, invalidField, loginFailed, notFound, rateLimited } from '../../api/errors';
import * as sessions from '../../api/repository';
import { parseRoles, switchableRoles } from '../../api/roles';
import { writeSysLog } from '../../infra/audit/syslog';
import { decoyHash, verifyPassword } from '../../infra/lib/passwords';
import { randomHex, sha256Hex } from '../../infra/lib/random';
import * as stores from '../stores/service';
import * as users from '../users/service';
import * as repo from './repository';
import { FAILURES_READ, nextAttemptAt, THROTTLE_WINDOW_MS, USERNAME_RULE } from './throttle';

/** Failures of one username from one address after which the system log notes the throttling. */
export const THROTTLE_NOTED_AT = 5;

/**
 * Signs in. Failures slow further attempts down (throttle.ts: per username and address, per
 * username, per address) instead of locking the account, and every refusal reads the same
 * whether or not the user exists.
 */
export async function login(ctx: CallContext, username: string, digest: string): Promise<string> {
  const { db, config } = ctx.services;
  const name = username.toLowerCase();
  const since = ctx.now - THROTTLE_WINDOW_MS;
  const [ofUsername, fromAddress] = await Promise.all([
    repo.failuresOfUsername(db, name, since, FAILURES_READ),
    repo.failuresFromAddress(db, ctx.ip, since, FAILURES_READ),
  ]);
  const nextAt = nextAttemptAt(ctx.ip, ofUsername, fromAddress);
  if (nextAt > ctx.now) throw rateLimited(Math.max(1, Math.ceil((nextAt - ctx.now) / 1000)));
  const user = await users.loginUser(db, name);
  const ok = user
    ? await verifyPassword(user.password_hash, digest)
    : await verifyPassword(await decoyHash(config.passwordCost), digest);
  if (!user || !ok) {
    await repo.recordFailure(db, name, ctx.ip, ctx.now, since);
    const fromHere = ofUsername.filter((f) => f.ip === ctx.ip).length + 1;
    const noted =
      fromHere === THROTTLE_NOTED_AT
        ? `from ${ctx.ip}`
        : ofUsername.length + 1 === USERNAME_RULE.free + 1
          ? 'from several addresses'
          : '';
    if (noted) {
      await writeSysLog(ctx.services, {
        tenantId: user?.tenant_id ?? null,
        level: 'warn',
        event: 'login.throttled',
        message: `sign-in attempts for ${name} slowed down ${noted}: ${ofUsername.length + 1} failures in 24 hours`,
        time: ctx.now,
      });
    }
    throw loginFailed();
  }
  await repo.clearFailures(db, name, ctx.ip);
  let storeId: number | null = null;
  if (user.tenant_id !== null) {
    const roles = parseRoles(user.roles);
    const scope = { tenantId: user.tenant_id, userId: roles.includes('admin') ? null : user.id };
    storeId = (await stores.storeRefs(db, scope))[0]?.id ?? null;
  }
  const token = randomHex(32);
  await sessions.insertSession(db, {
    id: sha256Hex(token),
    userId: user.id,
    tenantId: user.tenant_id,
    storeId,
    now: ctx.now,
    expiresAt: ctx.now + config.sessionTtlHours * 3_600_000,
    ip: ctx.ip,
  });
  await users.markLogin(db, user.id, ctx.now);
  await sessions.deleteExpiredSessions(db, user.id, ctx.now);
  // Who signed in, when and from where: what an administrator looks for after an incident.
  await writeSysLog(ctx.services, {
    tenantId: user.tenant_id,
    userId: user.id,
    level: 'info',
    event: 'login',
    message: `${name} signed in from ${ctx.ip}`,
    time: ctx.now,
  });
  return token;
}

/**
 * SPEC.md §4 role change: a derived session acting as `role` ('' = all of the user's roles). It is
 * a new session row (new token, only its hash stored; same user; fresh expiry) and the caller's
 * session is revoked, so the user keeps one live token for this sign-in. The current store stays
 * when the new roles may see it, otherwise it becomes the first store they may see (as at login).
 */
export async function changeRole(ctx: CallContext, role: Role | ''): Promise<string> {
  const caller = requireTenant(ctx);
  ctx.target = role ? { kind: 'role', name: role } : { kind: 'allRoles' };
  if (role && !switchableRoles(caller.heldRoles).includes(role)) throw invalidField('role', 'roleNotHeld');
  const { db, config } = ctx.services;
  const roles = role ? [role] : caller.heldRoles;
  const visible = await stores.storeRefs(db, stores.scopeOf({ ...caller, roles }));
  const storeId = visible.some((s) => s.id === caller.storeId) ? caller.storeId : (visible[0]?.id ?? null);
  const token = randomHex(32);
  await db.transaction().execute(async (trx) => {
    await sessions.insertSession(trx, {
      id: sha256Hex(token),
      userId: caller.userId,
      tenantId: caller.tenantId,
      storeId,
      now: ctx.now,
      expiresAt: ctx.now + config.sessionTtlHours * 3_600_000,
      ip: ctx.ip,
      role: role || null,
    });
    await sessions.deleteSession(trx, caller.sessionId);
  });
  return token;
}

export async function logout(ctx: CallContext): Promise<void> {
  const caller = requireCaller(ctx);
  ctx.target = { kind: 'session', name: caller.username };
  await sessions.deleteSession(ctx.services.db, caller.sessionId);
  await writeSysLog(ctx.services, {
    tenantId: caller.tenantId,
    level: 'info',
    event: 'logout',
    message: `${caller.username} signed out from ${ctx.ip}`,
    time: ctx.now,
  });
}

export async function info(ctx: CallContext) {
  const caller = requireCaller(ctx);
  const shops =
    caller.tenantId === null ? [] : await stores.storeRefs(ctx.services.db, stores.scopeOf(requireTenant(ctx)));
  const current = shops.find((s) => s.id === caller.storeId) ?? null;
  return {
    caller,
    shops,
    current,
    permissions: [...permissionsOf(caller.roles)],
  };
}

export async function setCurrentStore(ctx: CallContext, storeId: number) {
  const caller = requireTenant(ctx);
  ctx.target = { kind: 'store', name: `#${storeId}` };
  const store = await stores.findStore(ctx.services.db, stores.scopeOf(caller), storeId);
  if (!store) throw notFound();
  ctx.target = { kind: 'store', name: store.name };
  await sessions.setSessionStore(ctx.services.db, caller.sessionId, store.id);
  return { id: store.id, name: store.name };
}

/** The PDA configuration: where the server is, whose tenant, which store (SPEC.md §2 navbar). */
export async function pdaConfig(ctx: CallContext): Promise<PdaConfigData> {
  const caller = requireCaller(ctx);
  if (caller.tenantId === null) throw forbidden();
  const tenant = requireTenant(ctx);
  const store =
    caller.storeId === null
      ? undefined
      : await stores.findStore(ctx.services.db, stores.scopeOf(tenant), caller.storeId);
  return {
    server: publicBase(ctx),
    tenant: { id: tenant.tenantId, name: tenant.tenantName },
    store: store ? { id: store.id, name: store.name, code: store.code } : null,
    version: 1,
  };
}
