import type { Kysely, Updateable } from 'kysely';
import { contains, offsetOf } from '../../infra/db/query';
import type { Database, NewTemplate, TemplateTable } from '../../infra/db/schema';

type Db = Kysely<Database>;

export interface TemplateFilter {
  page: number;
  limit: number;
  name?: string;
  model?: string;
  colourType?: string;
}

/** The columns a list row needs (never the document) and the thumbnail key. */
function rows(db: Db, tenantId: number) {
  return db
    .selectFrom('templates')
    .leftJoin('template_thumbs', 'template_thumbs.template_id', 'templates.id')
    .where('templates.tenant_id', '=', tenantId);
}

const ROW_COLUMNS = [
  'templates.id',
  'templates.name',
  'templates.model',
  'templates.width',
  'templates.height',
  'templates.colour_type',
  'templates.rotation',
  'templates.revision',
  'templates.created_at',
  'templates.updated_at',
  'template_thumbs.key as thumb_key',
] as const;

export type TemplateListRow = Awaited<ReturnType<typeof findTemplateRow>> & object;

export async function listTemplates(db: Db, tenantId: number, f: TemplateFilter) {
  let q = rows(db, tenantId);
  if (f.name) q = q.where(contains('templates.name', f.name));
  if (f.model) q = q.where('templates.model', '=', f.model);
  if (f.colourType) q = q.where('templates.colour_type', '=', f.colourType);
  const [page, total] = await Promise.all([
    q
      .select(ROW_COLUMNS)
      .orderBy('templates.updated_at', 'desc')
      .orderBy('templates.id', 'desc')
      .limit(f.limit)
      .offset(offsetOf(f))
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: page, count: Number(total.n) };
}

export function findTemplateRow(db: Db, tenantId: number, id: number) {
  return rows(db, tenantId).select(ROW_COLUMNS).where('templates.id', '=', id).executeTakeFirst();
}

export function findTemplate(db: Db, tenantId: number, id: number) {
  return db
    .selectFrom('templates')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function nameTaken(db: Db, tenantId: number, name: string, exceptId = 0) {
  const row = await db
    .selectFrom('templates')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('name', '=', name)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export function insertTemplate(db: Db, row: NewTemplate) {
  return db.insertInto('templates').values(row).returning('id').executeTakeFirstOrThrow();
}

/** Updates a template still at `revision` (so two saves of one revision cannot both win). */
export function updateTemplate(
  db: Db,
  tenantId: number,
  id: number,
  revision: number,
  patch: Omit<Updateable<TemplateTable>, 'id' | 'tenant_id' | 'created_at'>,
) {
  return db
    .updateTable('templates')
    .set(patch)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('revision', '=', revision)
    .returning('id')
    .executeTakeFirst();
}

/** How many of the ids are templates of the tenant. */
export async function countTemplates(db: Db, tenantId: number, ids: readonly number[]) {
  const row = await db
    .selectFrom('templates')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteTemplates(db: Db, tenantId: number, ids: readonly number[]) {
  // Thumbnails go with their template (ON DELETE CASCADE); deleted explicitly too, so SQLite
  // files opened without foreign keys leave nothing behind.
  await db.deleteFrom('template_thumbs').where('tenant_id', '=', tenantId).where('template_id', 'in', ids).execute();
  const result = await db.deleteFrom('templates').where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
  return Number(result[0]?.numDeletedRows ?? 0);
}

export async function saveThumb(
  db: Db,
  row: { template_id: number; tenant_id: number; key: string; png: Uint8Array; revision: number },
) {
  await db
    .insertInto('template_thumbs')
    .values(row)
    .onConflict((oc) => oc.column('template_id').doUpdateSet({ key: row.key, png: row.png, revision: row.revision }))
    .execute();
}

/** The thumbnail behind a public key (no tenant: the random key is the capability, like avatars). */
export function findThumb(db: Db, key: string) {
  return db.selectFrom('template_thumbs').select('png').where('key', '=', key).executeTakeFirst();
}

export function listDataKeys(db: Db, tenantId: number) {
  return db
    .selectFrom('data_keys')
    .select(['name', 't_field', 'position'])
    .where('tenant_id', '=', tenantId)
    .orderBy('position')
    .orderBy('name')
    .execute();
}

export async function upsertDataKey(db: Db, tenantId: number, name: string, tField: string, position: number) {
  await db
    .insertInto('data_keys')
    .values({ tenant_id: tenantId, name, t_field: tField, position })
    .onConflict((oc) => oc.columns(['tenant_id', 'name']).doUpdateSet({ t_field: tField }))
    .execute();
}

export async function replaceDataKeys(
  db: Db,
  tenantId: number,
  keys: readonly { name: string; tField: string; position: number }[],
) {
  await db.deleteFrom('data_keys').where('tenant_id', '=', tenantId).execute();
  if (keys.length === 0) return;
  await db
    .insertInto('data_keys')
    .values(keys.map((k) => ({ tenant_id: tenantId, name: k.name, t_field: k.tField, position: k.position })))
    .execute();
}

/** Names of the first few of `ids` (for the operation log's target), in id order. */
export async function templateNamesOf(db: Db, tenantId: number, ids: readonly number[], max: number) {
  const rows = await db
    .selectFrom('templates')
    .select('name')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .orderBy('id')
    .limit(max)
    .execute();
  return rows.map((r) => r.name);
}

/** Templates of a tenant by id, with their documents (delivery renders them). */
export function templatesByIds(db: Db, tenantId: number, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('templates').selectAll().where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
}
