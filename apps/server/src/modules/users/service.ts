import { hasPermission, type ParsedBodyOf, type TenantRole } from '@esl/contract';
import type { Kysely } from 'kysely';
import { type CallContext, isAdmin, requireCaller, requireTenant } from '../../api/context';
import { conflict, forbidden, invalidField, notFound } from '../../api/errors';
import type { Database } from '../../db/schema';
import { hashPassword } from '../session/passwords';
import { deleteUserSessions } from '../session/repository';
import { avatarUrl } from '../session/service';
import { countTenantStores } from '../stores/repository';
import { presentUser } from './presenter';
import * as repo from './repository';

type Row = NonNullable<Awaited<ReturnType<typeof repo.findUser>>>;

async function present(ctx: CallContext, db: Kysely<Database>, row: Row) {
  const shops =
    row.tenant_id === null ? [] : ((await repo.storesOfUsers(db, row.tenant_id, [row.id])).get(row.id) ?? []);
  return presentUser(row, shops, avatarUrl(ctx, row.avatar_key));
}

/** Every id must be a store of the caller's tenant; otherwise the whole call is refused. */
async function checkStores(db: Kysely<Database>, tenantId: number, shops: readonly number[]) {
  const unique = [...new Set(shops)];
  if (unique.length && (await countTenantStores(db, tenantId, unique)) !== unique.length) throw notFound();
  return unique;
}

export async function list(ctx: CallContext, f: repo.UserFilter) {
  const { tenantId } = requireTenant(ctx);
  const { db } = ctx.services;
  const { rows, count } = await repo.listUsers(db, tenantId, f);
  const shops = await repo.storesOfUsers(
    db,
    tenantId,
    rows.map((r) => r.id),
  );
  return { rows: rows.map((r) => presentUser(r, shops.get(r.id) ?? [], avatarUrl(ctx, r.avatar_key))), count };
}

export async function add(ctx: CallContext, body: ParsedBodyOf<'addUser'>) {
  const { tenantId } = requireTenant(ctx);
  const username = body.username.toLowerCase();
  ctx.target = `user ${username}`;
  const passwordHash = await hashPassword(body.password, ctx.services.config.passwordCost);
  return ctx.services.db.transaction().execute(async (trx) => {
    if (await repo.usernameTaken(trx, username)) throw conflict(username);
    const shops = await checkStores(trx, tenantId, body.shops);
    const row = await repo.insertUser(trx, {
      tenant_id: tenantId,
      username,
      name: body.name,
      password_hash: passwordHash,
      roles: body.roles.join(','),
      introduction: body.introduction,
      avatar_key: null,
      created_at: ctx.now,
      last_login_at: null,
    });
    await repo.setUserStores(trx, tenantId, row.id, shops);
    return present(ctx, trx, row);
  });
}

export async function remove(ctx: CallContext, ids: readonly number[]) {
  const caller = requireTenant(ctx);
  const unique = [...new Set(ids)];
  ctx.target = `users #${unique.join(',')}`;
  if (unique.includes(caller.userId)) throw invalidField('ids', 'self');
  return ctx.services.db.transaction().execute(async (trx) => {
    if ((await repo.countTenantUsers(trx, caller.tenantId, unique)) !== unique.length) throw notFound();
    return repo.deleteUsers(trx, caller.tenantId, unique);
  });
}

/**
 * Anyone may change their own name, introduction and password; changing another user, or roles
 * and stores, needs user.write. An administrator cannot take the admin role away from themself.
 */
export async function alter(ctx: CallContext, body: ParsedBodyOf<'alterUser'>) {
  const caller = requireCaller(ctx);
  const self = body.id === caller.userId;
  const mayManage = hasPermission(caller.roles, 'user.write');
  ctx.target = `user #${body.id}`;
  if (!self && !mayManage) throw forbidden();
  if ((body.roles || body.shops) && (!mayManage || caller.tenantId === null)) throw forbidden();
  const { db } = ctx.services;
  const passwordHash = body.password ? await hashPassword(body.password, ctx.services.config.passwordCost) : undefined;
  return db.transaction().execute(async (trx) => {
    const row = await repo.findUser(trx, caller.tenantId, body.id);
    if (!row) throw notFound();
    ctx.target = `user ${row.username}`;
    const roles = body.roles ?? (row.roles.split(',') as TenantRole[]);
    if (self && isAdmin(caller) && !roles.includes('admin')) throw invalidField('roles', 'self');
    if (caller.tenantId !== null && (body.roles || body.shops)) {
      const current = (await repo.storesOfUsers(trx, caller.tenantId, [row.id])).get(row.id) ?? [];
      const shops = body.shops ? await checkStores(trx, caller.tenantId, body.shops) : current;
      if (!roles.includes('admin') && shops.length === 0) throw invalidField('shops', 'store');
      if (body.shops) await repo.setUserStores(trx, caller.tenantId, row.id, shops);
    }
    await repo.updateUser(trx, caller.tenantId, row.id, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.introduction !== undefined && { introduction: body.introduction }),
      ...(body.roles && { roles: body.roles.join(',') }),
      ...(passwordHash && { password_hash: passwordHash }),
    });
    // A new password signs the user out everywhere else.
    if (passwordHash) await deleteUserSessions(trx, row.id, self ? caller.sessionId : '');
    const updated = await repo.findUser(trx, caller.tenantId, row.id);
    if (!updated) throw notFound();
    return present(ctx, trx, updated);
  });
}
