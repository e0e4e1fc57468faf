import { SCHEDULE_TAG_LOG_KIND } from '@esl/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../infra/db/schema';

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

/**
 * Per tag of `tagIds` (of the store), its latest tag-log row that reports an outcome — a
 * revision superseded by a newer one ('replaced') reports none, the newer one will; nor does a
 * scheduled change's record (kind `schedule`). One index
 * seek per tag (tag_log_store_hardware), whatever the length of its history.
 */
export function lastTagResults(db: Db, at: { tenantId: number; storeId: number }, tagIds: readonly number[]) {
  if (tagIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('tags as t')
    .innerJoin('tag_log as l', (join) =>
      join.on((eb) =>
        eb(
          'l.id',
          '=',
          eb
            .selectFrom('tag_log as x')
            .select('x.id')
            .whereRef('x.tenant_id', '=', 't.tenant_id')
            .whereRef('x.store_id', '=', 't.store_id')
            .whereRef('x.hardware_id', '=', 't.hardware_id')
            .where('x.result', '<>', 'replaced')
            // A scheduled change's own row (docs/SCHEDULE.md) is a record, not work the tag did.
            .where('x.kind', '<>', SCHEDULE_TAG_LOG_KIND)
            .orderBy('x.finished_at', 'desc')
            .orderBy('x.id', 'desc')
            .limit(1),
        ),
      ),
    )
    .select(['t.id as tag_id', 'l.kind', 'l.result', 'l.code', 'l.request_id', 'l.finished_at'])
    .where('t.tenant_id', '=', at.tenantId)
    .where('t.store_id', '=', at.storeId)
    .where('t.id', 'in', tagIds)
    .execute();
}

export type LastTagResultRow = Awaited<ReturnType<typeof lastTagResults>>[number];
