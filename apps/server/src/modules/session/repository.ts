import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema';

// The login throttle (login_attempts). Session rows are auth/repository.ts; users are modules/users.

/** The latest failed logins of a username since `since` (from any address), newest first. */
export async function failuresOfUsername(db: Kysely<Database>, username: string, since: number, limit: number) {
  const rows = await db
    .selectFrom('login_attempts')
    .select(['ip', 'time'])
    .where('username', '=', username)
    .where('time', '>', since)
    .orderBy('time', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ip: r.ip, time: Number(r.time) }));
}

/** The latest failed logins from an address since `since` (for any username), newest first. */
export async function failuresFromAddress(db: Kysely<Database>, ip: string, since: number, limit: number) {
  const rows = await db
    .selectFrom('login_attempts')
    .select(['ip', 'time'])
    .where('ip', '=', ip)
    .where('time', '>', since)
    .orderBy('time', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ip: r.ip, time: Number(r.time) }));
}

export async function recordFailure(
  db: Kysely<Database>,
  username: string,
  ip: string,
  now: number,
  keepSince: number,
) {
  await db.insertInto('login_attempts').values({ username, ip, time: now }).execute();
  // Old attempts no longer count; dropping them here keeps the table small without a timer.
  await db.deleteFrom('login_attempts').where('time', '<=', keepSince).execute();
}

/** After a sign-in: that address's failures for the username end; a guesser elsewhere keeps his. */
export async function clearFailures(db: Kysely<Database>, username: string, ip: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('username', '=', username).where('ip', '=', ip).execute();
}
