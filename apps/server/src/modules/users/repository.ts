import { type Kysely, sql, type Updateable } from 'kysely';
import { contains, offsetOf } from '../../infra/db/query';
import type { Database, NewUser, UserTable } from '../../infra/db/schema';

export interface UserFilter {
  page: number;
  limit: number;
  name?: string;
  role?: string;
}

const columns = [
  'id',
  'tenant_id',
  'username',
  'name',
  'roles',
  'introduction',
  'avatar_key',
  'created_at',
  'last_login_at',
] as const;

export async function listUsers(db: Kysely<Database>, tenantId: number, f: UserFilter) {
  let q = db.selectFrom('users').where('tenant_id', '=', tenantId);
  if (f.name) {
    const text = f.name;
    q = q.where((eb) => eb.or([contains('name', text), contains('username', text)]));
  }
  if (f.role) q = q.where(sql<boolean>`(',' || roles || ',') like ${`%,${f.role},%`}`);
  const [rows, total] = await Promise.all([
    q.select(columns).orderBy('id').limit(f.limit).offset(offsetOf(f)).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

/** Store ids assigned to each of the users, in one query. */
export async function storesOfUsers(db: Kysely<Database>, tenantId: number, userIds: readonly number[]) {
  const out = new Map<number, number[]>();
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('user_stores')
    .select(['user_id', 'store_id'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', 'in', userIds)
    .orderBy('store_id')
    .execute();
  for (const r of rows) out.set(r.user_id, [...(out.get(r.user_id) ?? []), r.store_id]);
  return out;
}

/** A user of the tenant (null = a platform operator), or undefined. */
export function findUser(db: Kysely<Database>, tenantId: number | null, id: number) {
  return db
    .selectFrom('users')
    .select(columns)
    .where('id', '=', id)
    .where((eb) => (tenantId === null ? eb('tenant_id', 'is', null) : eb('tenant_id', '=', tenantId)))
    .executeTakeFirst();
}

export async function usernameTaken(db: Kysely<Database>, username: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  return row !== undefined;
}

export function insertUser(db: Kysely<Database>, row: NewUser) {
  return db.insertInto('users').values(row).returning(columns).executeTakeFirstOrThrow();
}

export async function updateUser(
  db: Kysely<Database>,
  tenantId: number | null,
  id: number,
  patch: Updateable<Pick<UserTable, 'name' | 'roles' | 'introduction' | 'password_hash'>>,
) {
  if (Object.keys(patch).length === 0) return;
  await db
    .updateTable('users')
    .set(patch)
    .where('id', '=', id)
    .where((eb) => (tenantId === null ? eb('tenant_id', 'is', null) : eb('tenant_id', '=', tenantId)))
    .execute();
}

export async function setUserStores(
  db: Kysely<Database>,
  tenantId: number,
  userId: number,
  storeIds: readonly number[],
): Promise<void> {
  await db.deleteFrom('user_stores').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
  if (storeIds.length === 0) return;
  await db
    .insertInto('user_stores')
    .values(storeIds.map((store_id) => ({ tenant_id: tenantId, user_id: userId, store_id })))
    .execute();
}

export async function countTenantUsers(db: Kysely<Database>, tenantId: number, ids: readonly number[]) {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteUsers(db: Kysely<Database>, tenantId: number, ids: readonly number[]) {
  const result = await db.deleteFrom('users').where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
  return Number(result[0]?.numDeletedRows ?? 0);
}

/** The fields a login checks, by username (usernames are unique across the platform). */
export function findLoginUser(db: Kysely<Database>, username: string) {
  return db
    .selectFrom('users')
    .select(['id', 'tenant_id', 'password_hash', 'roles'])
    .where('username', '=', username)
    .executeTakeFirst();
}

export async function markLogin(db: Kysely<Database>, userId: number, now: number): Promise<void> {
  await db.updateTable('users').set({ last_login_at: now }).where('id', '=', userId).execute();
}

/** A user of a tenant by username, or undefined. */
export function findByUsername(db: Kysely<Database>, tenantId: number, username: string) {
  return db
    .selectFrom('users')
    .select(['id'])
    .where('tenant_id', '=', tenantId)
    .where('username', '=', username)
    .executeTakeFirst();
}

/** A user by name, in one tenant or (no tenant given) wherever the name is: the operator's command line. */
export function findUserByName(db: Kysely<Database>, username: string, tenantId?: number) {
  let query = db.selectFrom('users').select(['id', 'tenant_id']).where('username', '=', username);
  if (tenantId !== undefined) query = query.where('tenant_id', '=', tenantId);
  return query.executeTakeFirst();
}

export async function setPasswordHash(db: Kysely<Database>, userId: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/** Stores a user's new avatar and makes it theirs; their previous avatars are deleted. */
export async function saveAvatar(
  db: Kysely<Database>,
  row: { key: string; tenantId: number | null; userId: number; mime: string; bytes: Buffer; now: number },
): Promise<void> {
  await db
    .insertInto('avatars')
    .values({
      key: row.key,
      tenant_id: row.tenantId,
      user_id: row.userId,
      mime: row.mime,
      bytes: row.bytes,
      created_at: row.now,
    })
    .execute();
  await db.updateTable('users').set({ avatar_key: row.key }).where('id', '=', row.userId).execute();
  await db.deleteFrom('avatars').where('user_id', '=', row.userId).where('key', '!=', row.key).execute();
}

export function findAvatar(db: Kysely<Database>, key: string) {
  return db.selectFrom('avatars').select(['mime', 'bytes']).where('key', '=', key).executeTakeFirst();
}

/** Names of the first few of `ids` (for the operation log's target), in id order. */
export async function usernamesOf(db: Kysely<Database>, tenantId: number, ids: readonly number[], max: number) {
  const rows = await db
    .selectFrom('users')
    .select('username')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .orderBy('id')
    .limit(max)
    .execute();
  return rows.map((r) => r.username);
}
