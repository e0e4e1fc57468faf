import { z } from 'zod';

/** Role names on the wire (DESIGN.md §4). `superadmin` is the platform operator, outside any tenant. */
export const TENANT_ROLES = ['admin', 'editor', 'manager', 'clerk', 'stock'] as const;
export const Role = z.enum(['admin', 'editor', 'manager', 'clerk', 'stock', 'superadmin']);
export type Role = z.infer<typeof Role>;
export const TenantRole = z.enum(TENANT_ROLES);
export type TenantRole = z.infer<typeof TenantRole>;

export const ROLE_LABELS: Record<Role, { 'zh-CN': string; en: string }> = {
  admin: { 'zh-CN': '管理员', en: 'administrator' },
  editor: { 'zh-CN': '主管', en: 'supervisor' },
  manager: { 'zh-CN': '店长', en: 'store manager' },
  clerk: { 'zh-CN': '店员', en: 'store clerk' },
  stock: { 'zh-CN': '理货员', en: 'stock clerk' },
  superadmin: { 'zh-CN': '平台运营', en: 'platform operator' },
};

export const PERMISSIONS = [
  'dashboard.read',
  'store.read',
  'store.write',
  'store.params',
  'station.read',
  'station.write',
  'station.operate',
  'tag.read',
  'tag.write',
  'tag.bind',
  'tag.operate',
  'product.read',
  'product.write',
  'product.import',
  'template.read',
  'template.write',
  'log.read',
  'user.read',
  'user.write',
  'tenant.config',
  'firmware.upgrade',
  'platform.tenants',
] as const;
export const Permission = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof Permission>;

const tenantAll = PERMISSIONS.filter((p) => p !== 'platform.tenants');

/** What each role may do on the server. The console hides what this table refuses. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: tenantAll,
  editor: [
    'dashboard.read',
    'store.read',
    'station.read',
    'station.write',
    'station.operate',
    'tag.read',
    'tag.write',
    'tag.bind',
    'tag.operate',
    'product.read',
    'product.write',
    'product.import',
    'template.read',
    'template.write',
    'log.read',
    'firmware.upgrade',
  ],
  manager: [
    'dashboard.read',
    'store.read',
    'station.read',
    'station.operate',
    'tag.read',
    'tag.write',
    'tag.bind',
    'tag.operate',
    'product.read',
    'product.write',
    'product.import',
    'template.read',
    'log.read',
  ],
  clerk: ['dashboard.read', 'store.read', 'tag.read', 'tag.bind', 'tag.operate', 'product.read', 'product.write'],
  stock: ['dashboard.read', 'store.read', 'tag.read', 'tag.bind', 'product.read', 'product.write', 'product.import'],
  superadmin: ['platform.tenants'],
};

export function permissionsOf(roles: readonly Role[]): Set<Permission> {
  const out = new Set<Permission>();
  for (const role of roles) for (const p of ROLE_PERMISSIONS[role] ?? []) out.add(p);
  return out;
}

export function hasPermission(roles: readonly Role[], permission: Permission): boolean {
  return roles.some((role) => ROLE_PERMISSIONS[role]?.includes(permission));
}
