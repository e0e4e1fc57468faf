import { type ParsedBodyOf, StoreParams } from '@esl/contract';
import type { Kysely } from 'kysely';
import { type CallContext, isAdmin, requireTenant, type TenantCaller } from '../../api/context';
import { conflict, notFound, storeNotSet } from '../../api/errors';
import type { Database } from '../../infra/db/schema';
import * as repo from './repository';

export { presentShop } from './presenter';
export type { StoreScope } from './repository';

/** The caller's current store: what every per-store call (stations, tags, products) acts on. */
export interface CurrentStore {
  tenantId: number;
  storeId: number;
  userId: number;
}

/**
 * The session's current store, checked to still be visible to the caller (an assignment may have
 * been taken away since it was chosen); none set, or no longer visible → STORE_NOT_SET (1008).
 */
export async function currentStore(ctx: CallContext): Promise<CurrentStore> {
  const caller = requireTenant(ctx);
  if (caller.storeId === null) throw storeNotSet();
  const store = await repo.findStore(ctx.services.db, scopeOf(caller), caller.storeId);
  if (!store) throw storeNotSet();
  return { tenantId: caller.tenantId, storeId: store.id, userId: caller.userId };
}

/** The stores a scope may see (id and name, as the store picker lists them). */
export function storeRefs(db: Kysely<Database>, scope: repo.StoreScope) {
  return repo.listStoreRefs(db, scope);
}

/** A store the scope may see, or undefined. */
export function findStore(db: Kysely<Database>, scope: repo.StoreScope, id: number) {
  return repo.findStore(db, scope, id);
}

/** A store of the tenant by its code, or undefined. */
export function findByCode(db: Kysely<Database>, tenantId: number, code: string) {
  return repo.findStoreByCode(db, tenantId, code);
}

/** How many of the ids are stores of the tenant. */
export function countTenantStores(db: Kysely<Database>, tenantId: number, ids: readonly number[]) {
  return repo.countTenantStores(db, tenantId, ids);
}

/** Administrators reach every store of their tenant; everyone else only their assigned stores. */
export function scopeOf(caller: TenantCaller): repo.StoreScope {
  return { tenantId: caller.tenantId, userId: isAdmin(caller) ? null : caller.userId };
}

export async function visibleStore(ctx: CallContext, id: number) {
  const caller = requireTenant(ctx);
  const store = await repo.findStore(ctx.services.db, scopeOf(caller), id);
  if (!store) throw notFound();
  return store;
}

export function list(ctx: CallContext, f: repo.StoreFilter) {
  return repo.listStores(ctx.services.db, scopeOf(requireTenant(ctx)), f);
}

export async function add(ctx: CallContext, fields: ParsedBodyOf<'addStore'>) {
  const { tenantId } = requireTenant(ctx);
  const { db } = ctx.services;
  ctx.target = { kind: 'store', name: fields.name };
  if (await repo.codeTaken(db, tenantId, fields.code)) throw conflict(fields.code);
  return repo.insertStore(db, { ...fields, tenant_id: tenantId, created_at: ctx.now });
}

export async function alter(ctx: CallContext, id: number, patch: Omit<ParsedBodyOf<'alterStore'>, 'id'>) {
  const { tenantId } = requireTenant(ctx);
  const { db } = ctx.services;
  ctx.target = { kind: 'store', name: `#${id}` };
  ctx.target = { kind: 'store', name: (await visibleStore(ctx, id)).name };
  if (patch.code !== undefined && (await repo.codeTaken(db, tenantId, patch.code, id))) throw conflict(patch.code);
  const row = Object.keys(patch).length ? await repo.updateStore(db, tenantId, id, patch) : await visibleStore(ctx, id);
  if (!row) throw notFound();
  return row;
}

export async function remove(ctx: CallContext, ids: readonly number[]) {
  const caller = requireTenant(ctx);
  const unique = [...new Set(ids)];
  ctx.target = { kind: 'stores', names: unique.map((id) => `#${id}`), count: unique.length };
  return ctx.services.db.transaction().execute(async (trx) => {
    const scope = scopeOf(caller);
    const reachable = await repo.listStoreRefs(trx, scope);
    const mine = new Set(reachable.map((s) => s.id));
    const names = reachable.filter((s) => unique.includes(s.id)).map((s) => s.name);
    ctx.target = { kind: 'stores', names, count: unique.length };
    // All or nothing: one id of another tenant (or unknown) refuses the whole call.
    if (!unique.every((id) => mine.has(id))) throw notFound();
    return repo.deleteStores(trx, caller.tenantId, unique);
  });
}

export async function getParams(ctx: CallContext, id: number) {
  const { tenantId } = requireTenant(ctx);
  await visibleStore(ctx, id);
  const saved = await repo.findParams(ctx.services.db, tenantId, id);
  return readParams(saved);
}

export async function setParams(ctx: CallContext, id: number, params: StoreParams) {
  const { tenantId } = requireTenant(ctx);
  ctx.target = { kind: 'store', name: `#${id}` };
  ctx.target = { kind: 'store', name: (await visibleStore(ctx, id)).name };
  await repo.saveParams(ctx.services.db, tenantId, id, JSON.stringify(params), ctx.now);
  return params;
}

/** A store's parameters as saved (defaults for those never set). */
export async function storeParams(db: Kysely<Database>, tenantId: number, storeId: number): Promise<StoreParams> {
  return readParams(await repo.findParams(db, tenantId, storeId));
}

/** Each store's time zone (store parameter `timeZone`): scheduled changes name its wall clock. */
export async function timeZones(
  db: Kysely<Database>,
  tenantId: number,
  storeIds: readonly number[],
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const id of new Set(storeIds)) out.set(id, readParams(await repo.findParams(db, tenantId, id)).timeZone);
  return out;
}

/** Saved parameters, repaired with defaults for fields added since they were saved. */
function readParams(saved: string | undefined): StoreParams {
  if (saved) {
    const parsed = StoreParams.safeParse(JSON.parse(saved));
    if (parsed.success) return parsed.data;
  }
  return StoreParams.parse({});
}
