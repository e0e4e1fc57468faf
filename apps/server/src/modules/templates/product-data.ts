import type { Product } from '@esl/contract';
import type { LabelData } from '@esl/labels';
import type { CallContext } from '../../api/context';
import { notFound } from '../../api/errors';
import { presentProduct } from '../products/presenter';
import { findProduct } from '../products/repository';
import { currentStore } from '../stores/current';

/**
 * What a template binds to for a product: the standard fields under their data keys, prices as
 * the decimal strings the product answers ("12.50"), and the custom fields under their own keys
 * (a custom field never hides a standard one).
 */
export function labelData(product: Product): LabelData {
  return {
    ...product.custom,
    name: product.name,
    price: product.price,
    originalPrice: product.originalPrice,
    barcode: product.barcode,
    qrcode: product.qrcode,
    unit: product.unit,
    spec: product.spec,
    origin: product.origin,
    grade: product.grade,
  };
}

/** A product of the caller's current store (products are per store), as label data. */
export async function productData(ctx: CallContext, productId: number): Promise<LabelData> {
  const at = await currentStore(ctx);
  const row = await findProduct(ctx.services.db, at, productId);
  if (!row) throw notFound();
  return labelData(presentProduct(row));
}
