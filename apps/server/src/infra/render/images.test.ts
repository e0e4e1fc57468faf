import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildTag } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { buildStore, buildTenant } from '../../test/factories';
import { useApp } from '../../test/harness';
import {
  collectImages,
  collectStatementPg,
  IMAGE_KEEP_MS,
  type ImageToStore,
  loadImage,
  loadImageByVer,
  storeImages,
  withoutNestedLoops,
} from './repository';

const DAY = 24 * 3600_000;

/** An image row with random bytes (the repository does not look inside them). */
const image = (size = 40): ImageToStore => {
  const bytes = new Uint8Array(randomBytes(size));
  return { hash: randomBytes(32).toString('hex'), bytes, size, width: 250, height: 122, colour: 'bwr' };
};

/** A tenant and its store, for one test. */
const shopOf = (t: ReturnType<typeof useApp>) => async () => {
  const { app } = t();
  const tenant = await buildTenant(app);
  const store = await buildStore(app, tenant.id);
  return { app, at: { tenantId: tenant.id, storeId: store.id } };
};

describe.each(await testDatabases())('tag_images on $name', (db) => {
  const t = useApp(db);
  const shop = shopOf(t);

  it('stores an image once per tenant and hash, and loads it back byte for byte, by hash or version', async () => {
    const { app, at } = await shop();
    const { db } = app.services;
    const a = image();
    const b = image(3000);
    await storeImages(db, at.tenantId, [a, b, { ...a }], 1000);
    const loaded = await loadImage(db, at.tenantId, a.hash);
    expect(loaded).toEqual({ ...a, bytes: a.bytes, createdAt: 1000, lastUsedAt: 1000 });
    expect(loaded?.bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(loaded?.bytes ?? []).equals(Buffer.from(a.bytes))).toBe(true);
    expect((await loadImageByVer(db, at.tenantId, b.hash.slice(0, 16)))?.hash).toBe(b.hash);
    expect(await loadImageByVer(db, at.tenantId, 'not-a-ver')).toBeUndefined();
    expect(await loadImage(db, at.tenantId, image().hash)).toBeUndefined();
  });

  it('keeps tenants apart: the same hash is two rows, and one tenant cannot load the other’s', async () => {
    const one = await shop();
    const two = await shop();
    const { db } = one.app.services;
    const a = image();
    await storeImages(db, one.at.tenantId, [a], 1000);
    expect(await loadImage(db, two.at.tenantId, a.hash)).toBeUndefined();
    expect(await loadImageByVer(db, two.at.tenantId, a.hash.slice(0, 16))).toBeUndefined();
    const other = { ...a, bytes: new Uint8Array([1, 2, 3]), size: 3 };
    await storeImages(db, two.at.tenantId, [other], 2000);
    expect((await loadImage(db, one.at.tenantId, a.hash))?.size).toBe(40);
    expect((await loadImage(db, two.at.tenantId, a.hash))?.size).toBe(3);
  });

  it('storing again keeps the bytes and moves the last use (when older than an hour)', async () => {
    const { app, at } = await shop();
    const { db } = app.services;
    const a = image();
    await storeImages(db, at.tenantId, [a], 1000);
    await storeImages(db, at.tenantId, [{ ...a, size: 99 }], 1000 + 60_000);
    expect(await loadImage(db, at.tenantId, a.hash)).toMatchObject({ size: 40, createdAt: 1000, lastUsedAt: 1000 });
    await storeImages(db, at.tenantId, [{ ...a, size: 99 }], 1000 + 2 * 3600_000);
    expect(await loadImage(db, at.tenantId, a.hash)).toMatchObject({
      size: 40,
      createdAt: 1000,
      lastUsedAt: 1000 + 2 * 3600_000,
    });
  });

  it('collects images no tag wants or shows once unused for a week, and nothing else', async () => {
    const { app, at } = await shop();
    const { db } = app.services;
    const now = 100 * DAY;
    await collectImages(db, now - 30 * DAY); // what the tests before left (the collector is global)
    const [desired, shown, orphan, recent, otherTenants] = [image(), image(), image(), image(), image()];
    const [timed, timedIdle] = [image(), image()];
    await storeImages(db, at.tenantId, [desired, shown, orphan, timed, timedIdle], now - 8 * DAY);
    await storeImages(db, at.tenantId, [recent], now - 6 * DAY);
    const tag = await buildTag(app, at);
    await buildTag(app, at); // a tag with nothing desired or shown: nulls must not protect all or none
    await db
      .updateTable('tags')
      .set({ desired_hash: desired.hash, shown_ver: shown.hash.slice(0, 16) })
      .where('id', '=', tag.id)
      .execute();
    // A timed label planned more than a week ahead of its time keeps its picture until it is idle.
    const timedTag = await buildTag(app, at);
    const idleTag = await buildTag(app, at);
    await db
      .insertInto('timed_labels')
      .values(
        [
          [timedTag.id, 'held', timed.hash],
          [idleTag.id, 'idle', timedIdle.hash],
        ].map(([tagId, state, hash]) => ({
          tenant_id: at.tenantId,
          store_id: at.storeId,
          tag_id: tagId as number,
          rev: 1,
          state: state as string,
          plan_key: '',
          show_at: now + DAY,
          hash: hash as string,
          size: 40,
          attempt: 0,
          due_at: 0,
          updated_at: now - 8 * DAY,
        })),
      )
      .execute();
    // Another tenant desires the orphan's hash: that protects only the other tenant's row.
    const other = await shop();
    await storeImages(db, other.at.tenantId, [{ ...orphan }, otherTenants], now - 8 * DAY);
    const otherTag = await buildTag(app, other.at);
    await db.updateTable('tags').set({ desired_hash: orphan.hash }).where('id', '=', otherTag.id).execute();

    expect(await collectImages(db, now)).toBe(3);
    const left = async (tenantId: number, images: ImageToStore[]) =>
      (await Promise.all(images.map((i) => loadImage(db, tenantId, i.hash)))).map((i) => i !== undefined);
    expect(await left(at.tenantId, [desired, shown, orphan, recent, timed, timedIdle])).toEqual([
      true,
      true,
      false,
      true,
      true,
      false,
    ]);
    expect(await left(other.at.tenantId, [orphan, otherTenants])).toEqual([true, false]);
    expect(await collectImages(db, now + IMAGE_KEEP_MS)).toBe(1); // `recent` is now a week old too
    expect(await collectImages(db, now + IMAGE_KEEP_MS)).toBe(0);
  });
});

// PostgreSQL's plan of the collector (SQLite answers NOT IN from a temporary index of each subquery).
describe.each((await testDatabases()).filter((d) => d.name === 'postgres'))(
  'the image collector’s plan on $name',
  (db) => {
    const t = useApp(db);
    const shop = shopOf(t);

    it('PostgreSQL: compares images and tags by hashing whatever their number, never each with each', async () => {
      // With the tags' hashes beyond work_mem, NOT IN compared every old image with every tag
      // (quadratic: over a minute at 1,000,000 tags) and NOT EXISTS was planned as nested loops.
      const { app, at } = await shop();
      const { db } = app.services;
      await sql`insert into tags (tenant_id, store_id, hardware_id, model, colour, status, signal, battery,
          temperature, hardware_model, created_at, desired_hash, shown_ver)
        select ${at.tenantId}, ${at.storeId}, 'GC' || i, '05', 'bwr', 'online', -60, 90, 22, '', 0,
          md5(i::text) || md5((i + 1)::text), substr(md5((i + 2)::text), 1, 16)
        from generate_series(1, 3000) i`.execute(db);
      await sql`insert into tag_images (tenant_id, hash, bytes, size, width, height, colour, created_at, last_used_at)
        select ${at.tenantId}, md5(i::text) || 'old', '\\x00', 1, 250, 122, 'bwr', 0, 0
        from generate_series(1, 3000) i`.execute(db);
      await sql`analyze tags`.execute(db);
      await sql`analyze tag_images`.execute(db);
      const plan = await withoutNestedLoops(db, async (trx) => {
        await sql`set local work_mem = '64kB'`.execute(trx);
        const statement = collectStatementPg(1);
        const rows = await sql<{ 'QUERY PLAN': string }>`explain ${statement}`.execute(trx);
        return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('Hash Anti Join');
      expect(plan).not.toMatch(/Nested Loop|SubPlan/);
    });
  },
);
