import { type ParsedBodyOf, TARGET_NAMES_KEPT } from '@esl/contract';
import type { CallContext } from '../../api/context';
import { requireTenant } from '../../api/context';
import { conflict, notFound } from '../../api/errors';
import { hashPassword } from '../../infra/lib/passwords';
import { randomHex } from '../../infra/lib/random';
import * as users from '../users/service';
import * as repo from './repository';

/** A fresh API key pair: ck identifies the tenant to ERP/POS integrations, sk signs their calls. */
export function newKeys() {
  return { ck: randomHex(8), sk: randomHex(32) };
}

export async function addTenant(ctx: CallContext, body: ParsedBodyOf<'addTenant'>) {
  const account = body.account.toLowerCase();
  ctx.target = { kind: 'tenant', name: body.name };
  const passwordHash = await hashPassword(body.sapwd, ctx.services.config.passwordCost);
  return ctx.services.db.transaction().execute(async (trx) => {
    if (await users.usernameTaken(trx, account)) throw conflict(account);
    const tenant = await repo.insertTenant(trx, {
      name: body.name,
      company: body.company,
      description: body.description,
      account,
      appid: '',
      ...newKeys(),
      created_at: ctx.now,
    });
    await users.insertUser(trx, {
      tenant_id: tenant.id,
      username: account,
      name: body.name,
      password_hash: passwordHash,
      roles: 'admin',
      introduction: '',
      avatar_key: null,
      created_at: ctx.now,
      last_login_at: null,
    });
    return { ...tenant, store_count: 0, user_count: 1 };
  });
}

export async function renewKeys(ctx: CallContext, id: number) {
  ctx.target = { kind: 'tenant', name: `#${id}` };
  const keys = newKeys();
  const row = (await repo.findTenant(ctx.services.db, id)) && (await repo.updateTenant(ctx.services.db, id, keys));
  if (!row) throw notFound();
  ctx.target = { kind: 'tenant', name: row.name };
  return keys;
}

export async function resetAccountPassword(ctx: CallContext, id: number, digest: string) {
  ctx.target = { kind: 'tenant', name: `#${id}` };
  const { db } = ctx.services;
  const tenant = await repo.findTenant(db, id);
  if (!tenant) throw notFound();
  const account = await users.findAccount(db, id, tenant.account);
  if (!account) throw notFound();
  ctx.target = { kind: 'tenantAdmin', name: tenant.name, extra: tenant.account };
  const passwordHash = await hashPassword(digest, ctx.services.config.passwordCost);
  await db.transaction().execute((trx) => users.resetPassword(trx, account.id, passwordHash));
}

export async function deleteTenants(ctx: CallContext, ids: readonly number[]) {
  const unique = [...new Set(ids)];
  ctx.target = { kind: 'tenants', names: unique.map((id) => `#${id}`), count: unique.length };
  return ctx.services.db.transaction().execute(async (trx) => {
    if ((await repo.countTenants(trx, unique)) !== unique.length) throw notFound();
    const names = await repo.tenantNamesOf(trx, unique, TARGET_NAMES_KEPT);
    ctx.target = { kind: 'tenants', names, count: unique.length };
    return repo.deleteTenants(trx, unique);
  });
}

/** The caller's own tenant (tenant.config calls). */
export async function ownTenant(ctx: CallContext) {
  const { tenantId } = requireTenant(ctx);
  const row = await repo.findTenant(ctx.services.db, tenantId);
  if (!row) throw notFound();
  return row;
}

export async function alterOwnTenant(
  ctx: CallContext,
  patch: { name?: string; company?: string; description?: string; appid?: string; ck?: string; sk?: string },
) {
  const { tenantId } = requireTenant(ctx);
  ctx.target = { kind: 'ownTenant' };
  const row = await repo.updateTenant(ctx.services.db, tenantId, patch);
  if (!row) throw notFound();
  return row;
}
