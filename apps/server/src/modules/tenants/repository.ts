import type { Kysely, Updateable } from 'kysely';
import { contains, offsetOf } from '../../infra/db/query';
import type { Database, TenantTable } from '../../infra/db/schema';

export async function listTenants(db: Kysely<Database>, f: { page: number; limit: number; name?: string }) {
  let q = db.selectFrom('tenants as t');
  if (f.name) q = q.where(contains('t.name', f.name));
  const [rows, total] = await Promise.all([
    q
      .selectAll('t')
      .select((eb) => [
        eb
          .selectFrom('stores')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('stores.tenant_id', '=', 't.id')
          .as('store_count'),
        eb
          .selectFrom('users')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('users.tenant_id', '=', 't.id')
          .as('user_count'),
      ])
      .orderBy('t.id')
      .limit(f.limit)
      .offset(offsetOf(f))
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

export function findTenant(db: Kysely<Database>, id: number) {
  return db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertTenant(db: Kysely<Database>, row: Omit<TenantTable, 'id'>) {
  return db.insertInto('tenants').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateTenant(
  db: Kysely<Database>,
  id: number,
  patch: Updateable<Pick<TenantTable, 'name' | 'company' | 'description' | 'appid' | 'ck' | 'sk'>>,
) {
  if (Object.keys(patch).length) await db.updateTable('tenants').set(patch).where('id', '=', id).execute();
  return findTenant(db, id);
}

export async function countTenants(db: Kysely<Database>, ids: readonly number[]) {
  const row = await db
    .selectFrom('tenants')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Deletes tenants and everything they own. Only the tenants rows are deleted here: every table
 * with a tenant_id column references tenants.id ON DELETE CASCADE (the migrations), and SQLite
 * enforces foreign keys because openDatabase turns them on, so the database removes the rest in
 * the same statement on both dialects. tenants.test.ts checks every such table it finds in the
 * live schema, so a new table without the cascade fails it.
 */
export async function deleteTenants(db: Kysely<Database>, ids: readonly number[]) {
  const result = await db.deleteFrom('tenants').where('id', 'in', ids).execute();
  return Number(result[0]?.numDeletedRows ?? 0);
}

export async function listFirmware(
  db: Kysely<Database>,
  f: { page: number; limit: number; kind?: 'ap' | 'module' | 'tag' },
) {
  let q = db.selectFrom('firmware');
  if (f.kind) q = q.where('kind', '=', f.kind);
  const [rows, total] = await Promise.all([
    q
      .select(['id', 'kind', 'version', 'name', 'size', 'created_at'])
      .orderBy('id', 'desc')
      .limit(f.limit)
      .offset(offsetOf(f))
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.n) };
}

/** Names of the first few of `ids` (for the operation log's target), in id order. */
export async function tenantNamesOf(db: Kysely<Database>, ids: readonly number[], max: number) {
  const rows = await db.selectFrom('tenants').select('name').where('id', 'in', ids).orderBy('id').limit(max).execute();
  return rows.map((r) => r.name);
}
