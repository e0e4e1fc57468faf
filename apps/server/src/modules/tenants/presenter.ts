import type { Tenant, TenantBaseInfo } from '@esl/contract';
import type { TenantRow } from '../../infra/db/schema';

export function presentTenant(row: TenantRow & { store_count?: number | null; user_count?: number | null }): Tenant {
  return {
    id: row.id,
    name: row.name,
    company: row.company,
    description: row.description,
    account: row.account,
    ck: row.ck,
    storeCount: Number(row.store_count ?? 0),
    userCount: Number(row.user_count ?? 0),
    createdAt: Number(row.created_at),
  };
}

/** sk as the settings page shows it after its renewal: its last four characters only. */
export function maskSecret(sk: string): string {
  return sk ? `${'•'.repeat(8)}${sk.slice(-4)}` : '';
}

/**
 * The tenant's own view of itself (tenant.config only): ck in full, sk masked. sk is shown once,
 * in the answer of /user/recreatecksk; the server keeps it (an HMAC needs the secret itself).
 */
export function presentBaseInfo(row: TenantRow): TenantBaseInfo {
  return {
    id: row.id,
    name: row.name,
    company: row.company,
    description: row.description,
    appid: row.appid,
    ck: row.ck,
    sk: maskSecret(row.sk),
  };
}

export function presentFirmware(row: {
  id: number;
  kind: 'ap' | 'module' | 'tag';
  version: string;
  name: string;
  size: number;
  created_at: number;
}) {
  return {
    id: row.id,
    kind: row.kind,
    version: row.version,
    name: row.name,
    size: Number(row.size),
    createdAt: Number(row.created_at),
  };
}
