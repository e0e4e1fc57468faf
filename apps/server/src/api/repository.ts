import type { Role } from '@esl/contract';
import type { Kysely } from 'kysely';
import { compiledOnce } from '../infra/db/query';
import type { Database } from '../infra/db/schema';

// The sessions table: a session row per sign-in (or role change), keyed by the token's hash.

/** The session row with the user and tenant fields a request needs, in one query (every request runs it). */
export const findSession = async (db: Kysely<Database>, id: string) => (await sessionQuery(db, id))[0];

const sessionQuery = compiledOnce('session.find', (db, id: string) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('tenants as t', 't.id', 'u.tenant_id')
    .select([
      's.id',
      's.expires_at',
      's.store_id',
      's.role',
      'u.id as user_id',
      'u.username',
      'u.name',
      'u.introduction',
    ])
    .select(['u.avatar_key', 'u.roles', 'u.tenant_id', 't.name as tenant_name', 't.company as tenant_company'])
    .where('s.id', '=', id),
);

export async function insertSession(
  db: Kysely<Database>,
  row: {
    id: string;
    userId: number;
    tenantId: number | null;
    storeId: number | null;
    now: number;
    expiresAt: number;
    ip: string;
    /** The one role the session acts as; null or absent = all of the user's roles. */
    role?: Role | null;
  },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: row.id,
      user_id: row.userId,
      tenant_id: row.tenantId,
      store_id: row.storeId,
      created_at: row.now,
      expires_at: row.expiresAt,
      ip: row.ip,
      role: row.role ?? null,
    })
    .execute();
}

/** Drops a user's expired sessions (done at login, so the table does not grow without bound). */
export async function deleteExpiredSessions(db: Kysely<Database>, userId: number, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
}

export async function extendSession(db: Kysely<Database>, id: string, expiresAt: number): Promise<void> {
  await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function setSessionStore(db: Kysely<Database>, id: string, storeId: number): Promise<void> {
  await db.updateTable('sessions').set({ store_id: storeId }).where('id', '=', id).execute();
}

export async function deleteSession(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Signs a user out everywhere (password reset, deletion), except the session given. */
export async function deleteUserSessions(db: Kysely<Database>, userId: number, except = ''): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('id', '!=', except).execute();
}
