import { type ParsedBodyOf, TARGET_NAMES_KEPT } from '@esl/contract';
import type { Kysely } from 'kysely';
import type { CallContext } from '../../api/context';
import { requireTenant } from '../../api/context';
import { conflict, notFound } from '../../api/errors';
import type { Database } from '../../infra/db/schema';
import { hashPassword } from '../../infra/lib/passwords';
import { randomHex } from '../../infra/lib/random';
import type { RenderPool } from '../../infra/render';
import { installStarter, starterThumbnails } from '../templates/service';
import * as users from '../users/service';
import * as repo from './repository';

/** A fresh API key pair: ck identifies the tenant to ERP/POS integrations, sk signs their calls. */
export function newKeys() {
  return { ck: randomHex(8), sk: randomHex(32) };
}

export async function addTenant(ctx: CallContext, body: ParsedBodyOf<'addTenant'>) {
  ctx.target = { kind: 'tenant', name: body.name };
  const passwordHash = await hashPassword(body.sapwd, ctx.services.config.passwordCost);
  return createTenantWithAdmin(ctx.services.db, { ...body, passwordHash, now: ctx.now }, ctx.services.previews);
}

/**
 * A tenant and its administrator (account = the admin's username, unique platform-wide), with the
 * starter templates and their rules (templates/starter), in one transaction: the operator's call
 * above and the command line's `create-tenant` (cli.ts). The thumbnails are drawn before the
 * transaction, by `previews` (the app's render pool) or in this thread.
 */
export async function createTenantWithAdmin(
  db: Kysely<Database>,
  t: { name: string; company: string; description: string; account: string; passwordHash: string; now: number },
  previews?: Pick<RenderPool, 'preview'>,
) {
  const account = t.account.toLowerCase();
  const thumbnails = await starterThumbnails(previews);
  return db.transaction().execute(async (trx) => {
    if (await users.usernameTaken(trx, account)) throw conflict(account);
    const tenant = await repo.insertTenant(trx, {
      name: t.name,
      company: t.company,
      description: t.description,
      account,
      appid: '',
      ...newKeys(),
      created_at: t.now,
    });
    await users.insertUser(trx, {
      tenant_id: tenant.id,
      username: account,
      name: t.name,
      password_hash: t.passwordHash,
      roles: 'admin',
      introduction: '',
      avatar_key: null,
      created_at: t.now,
      last_login_at: null,
    });
    await installStarter(trx, tenant.id, t.now, thumbnails);
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
