import type { Kysely, Updateable } from 'kysely';
import { contains, offsetOf } from '../../db/query';
import type { Database, TenantTable } from '../../db/schema';

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
 * Deletes tenants and everything they own. Foreign keys cascade too, but deleting child rows
 * explicitly keeps the order obvious and independent of the dialect's cascade support.
 */
export async function deleteTenants(db: Kysely<Database>, ids: readonly number[]) {
  for (const table of ['sessions', 'avatars', 'user_stores', 'store_params', 'op_logs', 'sys_logs'] as const) {
    await db.deleteFrom(table).where('tenant_id', 'in', ids).execute();
  }
  await db.deleteFrom('users').where('tenant_id', 'in', ids).execute();
  await db.deleteFrom('stores').where('tenant_id', 'in', ids).execute();
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
