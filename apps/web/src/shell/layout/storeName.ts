import type { ShopRef } from '@esl/contract';

/** The navbar's store label: the current store's name when it is in the list, else null ('Store not set'). */
export function currentStoreName(curshop: ShopRef | null, stores: readonly { id: number; name: string }[]) {
  if (!curshop) return null;
  return stores.find((s) => s.id === curshop.id)?.name ?? null;
}
