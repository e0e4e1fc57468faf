import type { Product } from '@esl/contract';
import { formatCents } from '../../infra/lib/price';
import type { ProductDetailRow } from './repository';

export function parseCustom(text: string): Record<string, string> {
  try {
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

export function presentProduct(row: ProductDetailRow): Product {
  return {
    id: row.id,
    barcode: row.barcode,
    qrcode: row.qrcode,
    name: row.name,
    price: formatCents(row.price_cents),
    originalPrice: row.original_price_cents === null ? null : formatCents(row.original_price_cents),
    unit: row.unit,
    spec: row.spec,
    origin: row.origin,
    grade: row.grade,
    custom: parseCustom(row.custom),
    priceChanges: Number(row.price_changes),
    tags: Number(row.tag_count ?? 0),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
