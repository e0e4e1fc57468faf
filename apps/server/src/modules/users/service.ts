import { AVATAR_MAX_BYTES, hasPermission, type ParsedBodyOf, TARGET_NAMES_KEPT, type TenantRole } from '@esl/contract';
import type { Kysely } from 'kysely';
import { type CallContext, isAdmin, publicBase, requireCaller, requireTenant } from '../../api/context';
import { badFile, conflict, forbidden, invalidField, notFound } from '../../api/errors';
import { deleteUserSessions } from '../../api/repository';
import type { Database, NewUser } from '../../infra/db/schema';
import { reencodeImage } from '../../infra/lib/image';
import { hashPassword } from '../../infra/lib/passwords';
import { randomHex } from '../../infra/lib/random';
import * as stores from '../stores/service';
import { AVATAR_PATH, AVATAR_SIDE, readUpload } from './avatar';
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
  if (unique.length && (await stores.countTenantStores(db, tenantId, unique)) !== unique.length) throw notFound();
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
  ctx.target = { kind: 'user', name: username };
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
  ctx.target = { kind: 'users', names: unique.map((id) => `#${id}`), count: unique.length };
  if (unique.includes(caller.userId)) throw invalidField('ids', 'self');
  return ctx.services.db.transaction().execute(async (trx) => {
    if ((await repo.countTenantUsers(trx, caller.tenantId, unique)) !== unique.length) throw notFound();
    const names = await repo.usernamesOf(trx, caller.tenantId, unique, TARGET_NAMES_KEPT);
    ctx.target = { kind: 'users', names, count: unique.length };
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
  ctx.target = { kind: 'user', name: `#${body.id}` };
  if (!self && !mayManage) throw forbidden();
  if ((body.roles || body.shops) && (!mayManage || caller.tenantId === null)) throw forbidden();
  const { db } = ctx.services;
  const passwordHash = body.password ? await hashPassword(body.password, ctx.services.config.passwordCost) : undefined;
  return db.transaction().execute(async (trx) => {
    const row = await repo.findUser(trx, caller.tenantId, body.id);
    if (!row) throw notFound();
    ctx.target = { kind: 'user', name: row.username };
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

/** The URL of an avatar, under this server's public address; '' for none. */
export function avatarUrl(ctx: CallContext, key: string | null): string {
  return key ? `${publicBase(ctx)}${AVATAR_PATH}/${key}` : '';
}

/** Stores the caller's new avatar in the database (so any server process can serve it); answers its key. */
export async function uploadAvatar(ctx: CallContext): Promise<string> {
  const caller = requireCaller(ctx);
  ctx.target = { kind: 'avatar', name: caller.username };
  const bytes = await readUpload(ctx);
  if (bytes.length > AVATAR_MAX_BYTES) throw badFile('fileSize');
  // Decoded and drawn again: what is served is never the uploaded bytes.
  const image = await reencodeImage(bytes, AVATAR_SIDE);
  if (!image) throw badFile('fileType');
  const key = randomHex(16);
  const row = { key, tenantId: caller.tenantId, userId: caller.userId, mime: image.type, bytes: image.bytes };
  await ctx.services.db.transaction().execute((trx) => repo.saveAvatar(trx, { ...row, now: ctx.now }));
  return key;
}

// For the session module (login) and the tenants module (a tenant's administrator account).

/** The fields a login checks, by (lower-case) username. */
export function loginUser(db: Kysely<Database>, username: string) {
  return repo.findLoginUser(db, username);
}

export function markLogin(db: Kysely<Database>, userId: number, now: number): Promise<void> {
  return repo.markLogin(db, userId, now);
}

/** Usernames are unique across the platform. */
export function usernameTaken(db: Kysely<Database>, username: string): Promise<boolean> {
  return repo.usernameTaken(db, username);
}

export function insertUser(db: Kysely<Database>, row: NewUser) {
  return repo.insertUser(db, row);
}

/** A user of a tenant by username (a tenant's administrator account), or undefined. */
export function findAccount(db: Kysely<Database>, tenantId: number, username: string) {
  return repo.findByUsername(db, tenantId, username);
}

/** Sets a user's password hash and signs them out everywhere. */
export async function resetPassword(db: Kysely<Database>, userId: number, passwordHash: string): Promise<void> {
  await repo.setPasswordHash(db, userId, passwordHash);
  await deleteUserSessions(db, userId);
}

/**
 * The operator's password reset (`npm run esl -- reset-password`): sets the hash of the user of
 * that name (the platform operator's too) and signs them out everywhere; false when there is none.
 */
export async function resetPasswordByName(
  db: Kysely<Database>,
  username: string,
  tenantId: number | undefined,
  passwordHash: string,
): Promise<boolean> {
  const user = await repo.findUserByName(db, username, tenantId);
  if (!user) return false;
  await db.transaction().execute((trx) => resetPassword(trx, user.id, passwordHash));
  return true;
}
