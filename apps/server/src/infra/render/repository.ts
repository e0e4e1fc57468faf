import { type Kysely, sql, type Transaction } from 'kysely';
import { dialectOfDb } from '../db/database';
import type { Database } from '../db/schema';
import type { RenderedImage } from './types';

type Db = Kysely<Database>;

/** What tag_images keeps of a rendered label. */
export type ImageToStore = Pick<RenderedImage, 'hash' | 'bytes' | 'size' | 'width' | 'height' | 'colour'>;

/** A stored label image. */
export interface StoredImage {
  hash: string;
  bytes: Uint8Array;
  size: number;
  width: number;
  height: number;
  colour: string;
  createdAt: number;
  lastUsedAt: number;
}

/** How long an image no tag wants or shows is kept after its last use. */
export const IMAGE_KEEP_MS = 7 * 24 * 3600_000;

/** Storing an image again moves its last use only when that is older than this (fewer writes). */
const TOUCH_AFTER_MS = 3600_000;

/** Rows per INSERT: 9 parameters each, far below either dialect's limit. */
const CHUNK = 500;

const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Stores rendered images of a tenant, once per hash (call it in the transaction that sets
 * `tags.desired_hash`). An image already stored is kept as it is, but its `last_used_at` moves
 * to `now` (when older than an hour): `ON CONFLICT DO UPDATE` rather than `DO NOTHING` because
 * the update locks the row on PostgreSQL, so a collector deleting it concurrently either waits
 * and sees it used, or has already deleted it and this insert writes it again. Never a desired
 * hash without its bytes.
 */
export async function storeImages(db: Db, tenantId: number, images: readonly ImageToStore[], now: number) {
  // One row per hash: PostgreSQL refuses an upsert that meets the same key twice.
  const unique = [...new Map(images.map((i) => [i.hash, i])).values()];
  for (let at = 0; at < unique.length; at += CHUNK) {
    await db
      .insertInto('tag_images')
      .values(
        unique.slice(at, at + CHUNK).map((i) => ({
          tenant_id: tenantId,
          hash: i.hash,
          bytes: buffer(i.bytes),
          size: i.size,
          width: i.width,
          height: i.height,
          colour: i.colour,
          created_at: now,
          last_used_at: now,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['tenant_id', 'hash'])
          .doUpdateSet({ last_used_at: (eb) => eb.ref('excluded.last_used_at') })
          .where('tag_images.last_used_at', '<', now - TOUCH_AFTER_MS),
      )
      .execute();
  }
}

function present(row: Omit<Database['tag_images'], 'tenant_id'>): StoredImage {
  const b = row.bytes;
  return {
    hash: row.hash,
    bytes: new Uint8Array(b.buffer, b.byteOffset, b.byteLength),
    size: row.size,
    width: row.width,
    height: row.height,
    colour: row.colour,
    createdAt: Number(row.created_at),
    lastUsedAt: Number(row.last_used_at),
  };
}

const COLUMNS = ['hash', 'bytes', 'size', 'width', 'height', 'colour', 'created_at', 'last_used_at'] as const;

/** A tenant's image by content hash; undefined when it is not stored (or is another tenant's). */
export async function loadImage(db: Db, tenantId: number, hash: string): Promise<StoredImage | undefined> {
  const row = await db
    .selectFrom('tag_images')
    .select(COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('hash', '=', hash)
    .executeTakeFirst();
  return row && present(row);
}

/**
 * A tenant's image by version (the first 16 hex digits of its hash, what tags report), read
 * through the primary key as a range. Two stored hashes sharing 64 bits would be a SHA-256
 * collision in practice; the first is answered.
 */
export async function loadImageByVer(db: Db, tenantId: number, ver: string): Promise<StoredImage | undefined> {
  if (!/^[0-9a-f]{16}$/.test(ver)) return undefined;
  const row = await db
    .selectFrom('tag_images')
    .select(COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('hash', '>=', ver)
    .where('hash', '<', `${ver}g`)
    .orderBy('hash')
    .limit(1)
    .executeTakeFirst();
  return row && present(row);
}

/** PostgreSQL: `work` in a transaction whose statements join by hashing, never by nested loops. */
export function withoutNestedLoops<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_nestloop = off`.execute(trx);
    return work(trx);
  });
}

/** The collector's statement on PostgreSQL (run `withoutNestedLoops`; exported for its plan's test). */
export const collectStatementPg = (before: number) => sql`
  delete from tag_images i
  where i.last_used_at < ${before}
    and not exists (select 1 from tags t where t.tenant_id = i.tenant_id and t.desired_hash = i.hash)
    and not exists (select 1 from tags t where t.tenant_id = i.tenant_id and t.shown_ver = substr(i.hash, 1, 16))
    and not exists (
      select 1 from timed_labels l where l.tenant_id = i.tenant_id and l.hash = i.hash and l.state <> 'idle')`;

/**
 * Deletes images that no tag wants (`tags.desired_hash`), shows, or is to hold for a time (a timed
 * label that is not idle, planned perhaps more than `keepMs` ahead), unused since `now − keepMs`;
 * answers how many. A shown image is recognised by the version the tag reports (`tags.shown_ver`,
 * the first 16 digits of the hash). Set-based anti-joins on both databases, in their own forms:
 * - SQLite: NOT IN over row values (nulls left out of the subqueries so NOT IN stays true); it
 *   builds a temporary index of each subquery once.
 * - PostgreSQL: NOT EXISTS, with nested loops off for the statement. Its NOT IN is a hashed subplan
 *   only while the set fits in `work_mem` (4 MB by default: some 50,000 tags), beyond that it
 *   compares every candidate image with every tag (1,000,000 tags and 200,000 old images: over a
 *   minute, cancelled; planned cost 8·10⁹), and NOT EXISTS alone was planned as nested loops on a
 *   one-row estimate (7.5 minutes); as hash anti-joins it took 1.0 s (docs/performance-log.md, "The
 *   image collector at 1,000,000 tags").
 */
export async function collectImages(db: Db, now: number, keepMs = IMAGE_KEEP_MS): Promise<number> {
  const before = now - keepMs;
  if (dialectOfDb(db) === 'postgres') {
    const result = await withoutNestedLoops(db, (trx) => collectStatementPg(before).execute(trx));
    return Number(result.numAffectedRows ?? 0);
  }
  const result = await sql`
    delete from tag_images
    where last_used_at < ${before}
      and (tenant_id, hash) not in (
        select tenant_id, desired_hash from tags where desired_hash is not null)
      and (tenant_id, substr(hash, 1, 16)) not in (
        select tenant_id, shown_ver from tags where shown_ver is not null)
      and (tenant_id, hash) not in (
        select tenant_id, hash from timed_labels where state <> 'idle' and hash is not null)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
