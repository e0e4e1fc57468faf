import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

// The login throttle (login_attempts). Session rows are auth/repository.ts; users are modules/users.

/** Times of the latest failed logins for a username since `since`, newest first. */
export async function recentFailures(db: Kysely<Database>, username: string, since: number, limit: number) {
  const rows = await db
    .selectFrom('login_attempts')
    .select('time')
    .where('username', '=', username)
    .where('time', '>', since)
    .orderBy('time', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.time));
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

export async function clearFailures(db: Kysely<Database>, username: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('username', '=', username).execute();
}
