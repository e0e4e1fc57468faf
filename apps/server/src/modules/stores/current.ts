import { type CallContext, requireTenant } from '../../api/context';
import { storeNotSet } from '../../api/errors';
import { findStore } from './repository';
import { scopeOf } from './service';

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
  const store = await findStore(ctx.services.db, scopeOf(caller), caller.storeId);
  if (!store) throw storeNotSet();
  return { tenantId: caller.tenantId, storeId: store.id, userId: caller.userId };
}
