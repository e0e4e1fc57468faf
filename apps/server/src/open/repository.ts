import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

type Db = Kysely<Database>;

/** The tenant whose current ck this is (a renewed key is no longer in the row: refused at once). */
export function findTenantByCk(db: Db, ck: string) {
  return db.selectFrom('tenants').select(['id', 'name', 'company', 'ck', 'sk']).where('ck', '=', ck).executeTakeFirst();
}

/** How many calls the tenant's key made since `since` (the nonces kept for them) and when the first was, for the rate limit. */
export async function callsSince(db: Db, tenantId: number, since: number) {
  const row = await db
    .selectFrom('open_nonces')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('time').as('first')])
    .where('tenant_id', '=', tenantId)
    .where('time', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), first: row.first === null ? null : Number(row.first) };
}

/** Keeps a nonce; a unique violation (the nonce was used) is the caller's to turn into a refusal. */
export async function insertNonce(db: Db, tenantId: number, nonce: string, time: number): Promise<void> {
  await db.insertInto('open_nonces').values({ tenant_id: tenantId, nonce, time }).execute();
}

/** Drops the tenant's nonces older than `before`: a call that old is refused by its timestamp anyway. */
export async function dropNonces(db: Db, tenantId: number, before: number): Promise<void> {
  await db.deleteFrom('open_nonces').where('tenant_id', '=', tenantId).where('time', '<', before).execute();
}
