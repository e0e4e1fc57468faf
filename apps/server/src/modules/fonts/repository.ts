import type { Insertable, Kysely } from 'kysely';
import type { Database, TenantFontTable } from '../../infra/db/schema';

/** A tenant's brand fonts, without their bytes, family then weight. */
export function listFonts(db: Kysely<Database>, tenantId: number) {
  return db
    .selectFrom('tenant_fonts')
    .select(['id', 'family', 'family_key', 'weight', 'format', 'name', 'size', 'hash', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('family_key')
    .orderBy('weight')
    .execute();
}

export type FontRow = Awaited<ReturnType<typeof listFonts>>[number];

export function findFont(db: Kysely<Database>, tenantId: number, id: number) {
  return db
    .selectFrom('tenant_fonts')
    .select(['id', 'family', 'family_key', 'weight', 'format', 'name', 'size', 'hash', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function fontBytes(db: Kysely<Database>, tenantId: number, id: number): Promise<Uint8Array | undefined> {
  const row = await db
    .selectFrom('tenant_fonts')
    .select('bytes')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.bytes;
}

/** The faces of these families (lower case) of a tenant, without bytes. */
export function facesOf(db: Kysely<Database>, tenantId: number, familyKeys: readonly string[]) {
  return db
    .selectFrom('tenant_fonts')
    .select(['id', 'family', 'family_key', 'weight', 'hash'])
    .where('tenant_id', '=', tenantId)
    .where('family_key', 'in', familyKeys)
    .execute();
}

export function familyTaken(db: Kysely<Database>, tenantId: number, familyKey: string, weight: number) {
  return db
    .selectFrom('tenant_fonts')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('family_key', '=', familyKey)
    .where('weight', '=', weight)
    .executeTakeFirst();
}

export async function insertFont(db: Kysely<Database>, row: Insertable<TenantFontTable>): Promise<number> {
  const { id } = await db.insertInto('tenant_fonts').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function deleteFont(db: Kysely<Database>, tenantId: number, id: number): Promise<number> {
  const result = await db
    .deleteFrom('tenant_fonts')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Every template of a tenant with its document (JSON), to find the families they name. */
export function templateDocuments(db: Kysely<Database>, tenantId: number) {
  return db
    .selectFrom('templates')
    .select(['id', 'name', 'document'])
    .where('tenant_id', '=', tenantId)
    .orderBy('name')
    .execute();
}
