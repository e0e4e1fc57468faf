import type { LabelData } from '@esl/labels';
import { type CallContext, requireTenant } from '../../api/context';
import { notFound, storeNotSet } from '../../api/errors';

/** The data keys of a product of the caller's current store, as a template binds them. */
export async function productData(ctx: CallContext, productId: number): Promise<LabelData> {
  const caller = requireTenant(ctx);
  if (caller.storeId === null) throw storeNotSet();
  ctx.target = `product ${productId}`;
  throw notFound();
}
