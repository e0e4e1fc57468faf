import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../infra/db/schema';
import { randomHex } from '../infra/lib/random';
import { buildTenant, buildUser, buildWorld, login } from './factories';
import { callApi } from './harness';

/** Factories for base stations, tags and products (issue 4); rows go straight to the database. */

export async function useStore(app: FastifyInstance, token: string, storeId: number): Promise<void> {
  const res = await callApi(app, '/user/setcurrshop', { curshop: storeId }, { token });
  expect(res.code, res.msg).toBe(0);
}

/**
 * buildWorld with every user's current store set to the first store (the one every role is
 * assigned), plus a second admin session whose current store is the second store.
 */
export async function buildShop(app: FastifyInstance) {
  const world = await buildWorld(app);
  for (const token of Object.values(world.tokens)) await useStore(app, token, world.stores[0].id);
  const otherStoreAdmin = await login(app, world.users.admin.username);
  await useStore(app, otherStoreAdmin, world.stores[1].id);
  return { ...world, store: world.stores[0], otherStore: world.stores[1], otherStoreAdmin };
}

interface At {
  tenantId: number;
  storeId: number;
}

type ProductFields = { barcode?: string; name?: string; priceCents?: number; custom?: Record<string, string> };

export async function buildProduct(app: FastifyInstance, at: At, fields: ProductFields = {}) {
  const [row] = await buildProducts(app, at, [fields]);
  if (!row) throw new Error('no product');
  return row;
}

/** Many products in one statement (rows in the order given). */
export async function buildProducts(app: FastifyInstance, at: At, many: readonly ProductFields[]) {
  const now = app.services.config.now();
  const rows = await app.services.db
    .insertInto('products')
    .values(
      many.map((fields) => ({
        tenant_id: at.tenantId,
        store_id: at.storeId,
        barcode: fields.barcode ?? `690${randomHex(5)}`,
        qrcode: '',
        name: fields.name ?? `Product ${randomHex(3)}`,
        price_cents: fields.priceCents ?? 1999,
        original_price_cents: null,
        unit: '',
        spec: '',
        origin: '',
        grade: '',
        custom: JSON.stringify(fields.custom ?? {}),
        price_changes: 0,
        created_at: now,
        updated_at: now,
      })),
    )
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

type TagFields = {
  hardwareId?: string;
  model?: string;
  colour?: string;
  status?: string;
  productId?: number | null;
  battery?: number;
};

export async function buildTag(app: FastifyInstance, at: At, fields: TagFields = {}) {
  const [row] = await buildTags(app, at, [fields]);
  if (!row) throw new Error('no tag');
  return row;
}

/** Many tags in one statement (rows in the order given). */
export async function buildTags(app: FastifyInstance, at: At, many: readonly TagFields[]) {
  const rows = await app.services.db
    .insertInto('tags')
    .values(
      many.map((fields) => ({
        tenant_id: at.tenantId,
        store_id: at.storeId,
        hardware_id: fields.hardwareId ?? randomHex(6).toUpperCase(),
        model: fields.model ?? '05',
        colour: fields.colour ?? 'bwr',
        product_id: fields.productId ?? null,
        station_id: null,
        status: fields.status ?? 'online',
        signal: -60,
        battery: fields.battery ?? 90,
        temperature: 22,
        hardware_model: '',
        last_seen: null,
        created_at: app.services.config.now(),
      })),
    )
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

export async function buildStation(app: FastifyInstance, at: At, fields: { sn?: string } = {}) {
  return app.services.db
    .insertInto('stations')
    .values({
      tenant_id: at.tenantId,
      store_id: at.storeId,
      sn: fields.sn ?? `AP${randomHex(4).toUpperCase()}`,
      name: '',
      module: '',
      secret_hash: randomHex(32),
      cpu: null,
      memory: null,
      disk: null,
      ip: '',
      mac: '',
      wifi_password: '',
      ntp_server: '',
      gateway: '',
      mask: '',
      server_address: '',
      server_port: null,
      upgrade_url: '',
      firmware: '',
      last_heartbeat: null,
      online: 0,
      created_at: app.services.config.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Every row of a table for a store, by id: "nothing changed" compares these before and after. */
export function snapshot(app: FastifyInstance, table: 'products' | 'tags' | 'stations', storeId: number) {
  return app.services.db.selectFrom(table).selectAll().where('store_id', '=', storeId).orderBy('id').execute();
}

/** A multipart body with one file in field `file`. */
export function multipartFile(filename: string, bytes: Buffer, type = 'application/octet-stream') {
  const boundary = `----esl-${randomHex(8)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** An administrator of a tenant without stores: a session with no current store. */
export async function buildStorelessAdmin(app: FastifyInstance) {
  const tenant = await buildTenant(app);
  const user = await buildUser(app, { tenantId: tenant.id, roles: ['admin'] });
  return { tenant, token: await login(app, user.username) };
}

/**
 * `count` products and as many tags bound to them (model 05, black/white/red), written in batches
 * of 500 straight to the database — the big stores of the delivery tests and benches. Answers each
 * tag's hardware id (`hwPrefix` + ten digits) and its product.
 */
export async function insertBoundTags(
  db: Kysely<Database>,
  at: At,
  count: number,
  o: { hwPrefix: string; priceCents: (i: number) => number; now: number },
): Promise<Array<{ hw: string; productId: number }>> {
  const out: Array<{ hw: string; productId: number }> = [];
  for (let i = 0; i < count; i += 500) {
    const n = Math.min(500, count - i);
    const rows = await db
      .insertInto('products')
      .values(
        Array.from({ length: n }, (_, k) => ({
          tenant_id: at.tenantId,
          store_id: at.storeId,
          barcode: `69${String(i + k).padStart(11, '0')}`,
          qrcode: '',
          name: `Plum ${i + k}`,
          price_cents: o.priceCents(i + k),
          original_price_cents: null,
          unit: '',
          spec: '',
          origin: '',
          grade: '',
          custom: '{}',
          price_changes: 0,
          created_at: o.now,
          updated_at: o.now,
        })),
      )
      .returning('id')
      .execute();
    const batch = rows.map((r, k) => ({ hw: `${o.hwPrefix}${String(i + k).padStart(10, '0')}`, productId: r.id }));
    await db
      .insertInto('tags')
      .values(
        batch.map((b) => ({
          tenant_id: at.tenantId,
          store_id: at.storeId,
          hardware_id: b.hw,
          model: '05',
          colour: 'bwr',
          product_id: b.productId,
          station_id: null,
          status: 'unknown',
          signal: null,
          battery: null,
          temperature: null,
          hardware_model: '',
          last_seen: null,
          created_at: o.now,
        })),
      )
      .execute();
    out.push(...batch);
  }
  return out;
}
