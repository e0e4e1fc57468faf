import { useUserStore } from '../../store/user';

/**
 * The id of the current store, or null when none is set or the set one is no longer the
 * user's (the navbar then reads 'Store not set'). Base stations, tags and products are per
 * store, so their pages need one.
 */
export function useCurrentStoreId(): number | null {
  const curshop = useUserStore((s) => s.curshop);
  const shops = useUserStore((s) => s.shops);
  if (!curshop) return null;
  return shops.some((s) => s.id === curshop.id) ? curshop.id : null;
}
