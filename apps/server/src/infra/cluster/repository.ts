import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';

type Db = Kysely<Database>;

/*
 * Named leases shared by the server processes of one database (migration 015). Taking and
 * renewing are the same statement: an upsert that only overwrites a lease that is this owner's
 * already or has run out. Whoever the database lets write the row holds the lease; everyone
 * else's statement changes nothing and answers false.
 */

/** Takes or renews `name` for `owner` until `now + ttlMs`; false when another owner holds it. */
export async function claimLease(
  db: Db,
  name: string,
  owner: string,
  now: number,
  ttlMs: number,
  info = '',
): Promise<boolean> {
  const row = await db
    .insertInto('cluster_leases')
    .values({ name, owner, until: now + ttlMs, info })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ owner, until: now + ttlMs, info })
        .where((eb) => eb.or([eb('cluster_leases.owner', '=', owner), eb('cluster_leases.until', '<', now)])),
    )
    .returning('name')
    .executeTakeFirst();
  return row !== undefined;
}

/** Gives `name` up if `owner` holds it (a clean stop); a lease of someone else is left alone. */
export async function releaseLease(db: Db, name: string, owner: string): Promise<void> {
  await db.deleteFrom('cluster_leases').where('name', '=', name).where('owner', '=', owner).execute();
}

/** Leases named `{prefix}…` that have not run out. */
export function liveLeases(db: Db, prefix: string, now: number) {
  return db
    .selectFrom('cluster_leases')
    .select(['name', 'owner', 'until', 'info'])
    .where('name', 'like', `${prefix}%`)
    .where('until', '>=', now)
    .orderBy('name')
    .execute();
}

/** Gauges for /metrics: task slots by state, stations by presence, stored images. */
export async function deliveryGauges(db: Db) {
  const tasks = await db
    .selectFrom('device_tasks')
    .select(['state', sql<number>`count(*)`.as('n')])
    .groupBy('state')
    .execute();
  const stations = await db
    .selectFrom('stations')
    .select(['online', sql<number>`count(*)`.as('n')])
    .groupBy('online')
    .execute();
  const due = await db
    .selectFrom('device_tasks')
    .select(sql<number>`count(*)`.as('n'))
    .where('state', '=', 'queued')
    .executeTakeFirst();
  const outbox = await db
    .selectFrom('callback_outbox')
    .select(sql<number>`count(*)`.as('n'))
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return {
    tasks: tasks.map((r) => ({ state: r.state, n: Number(r.n) })),
    stations: stations.map((r) => ({ online: Boolean(Number(r.online)), n: Number(r.n) })),
    queued: Number(due?.n ?? 0),
    callbacksPending: Number(outbox?.n ?? 0),
  };
}

/** Announces `payload` to every process that LISTENs on `channel` (PostgreSQL only). */
export async function notifyChannel(db: Db, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}

/**
 * Process leases that ran out without being given up: processes that died (a clean stop deletes
 * its lease). Each is deleted as it is answered, so one death is acted on once, by one process.
 */
export async function takeDeadProcesses(db: Db, prefix: string, now: number): Promise<string[]> {
  const rows = await db
    .deleteFrom('cluster_leases')
    .where('name', 'like', `${prefix}%`)
    .where('until', '<', now)
    .returning('name')
    .execute();
  return rows.map((r) => r.name);
}

/** Online stations with the connection they are on (to welcome them again). */
export function onlineStations(db: Db) {
  return db
    .selectFrom('stations')
    .select(['id', 'tenant_id', 'sn', 'conn_id', 'cfg_rev'])
    .where('online', '=', 1)
    .where('conn_id', '<>', '')
    .orderBy('id')
    .execute();
}
