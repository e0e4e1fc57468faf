/**
 * The handheld page's address (docs/PDA.md) on this server, with the tenant and the current store
 * as hints: the page opens in that store when the clerk may work there.
 */
export function pdaUrl(config: { server: string; tenant: { id: number }; store: { id: number } | null }): string {
  const url = new URL('/pda/', `${config.server.replace(/\/+$/, '')}/`);
  url.searchParams.set('tenant', String(config.tenant.id));
  if (config.store) url.searchParams.set('store', String(config.store.id));
  return url.toString();
}
