import { productLabelData } from '@esl/contract';
import type { LabelData } from '@esl/labels';
import type { CallContext } from '../../api/context';
import { notFound } from '../../api/errors';
import { presentProduct } from '../products/presenter';
import { findProduct } from '../products/repository';
import { currentStore } from '../stores/current';

/** A product of the caller's current store (products are per store), as label data. */
export async function productData(ctx: CallContext, productId: number): Promise<LabelData> {
  const at = await currentStore(ctx);
  const row = await findProduct(ctx.services.db, at, productId);
  if (!row) throw notFound();
  return productLabelData(presentProduct(row));
}
