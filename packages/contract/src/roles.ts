import { z } from 'zod';
import { PERMISSIONS, ROLE_PERMISSIONS, ROLES, rolesWith, TENANT_ROLES } from './roleTable';

export { PERMISSIONS, ROLE_PERMISSIONS, ROLES, rolesWith, TENANT_ROLES };

/** Role names on the wire (DESIGN.md §4). `superadmin` is the platform operator, outside any tenant. */
export const Role = z.enum(ROLES);
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

export const Permission = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof Permission>;

export function permissionsOf(roles: readonly Role[]): Set<Permission> {
  const out = new Set<Permission>();
  for (const role of roles) for (const p of ROLE_PERMISSIONS[role] ?? []) out.add(p);
  return out;
}

export function hasPermission(roles: readonly Role[], permission: Permission): boolean {
  return roles.some((role) => ROLE_PERMISSIONS[role]?.includes(permission));
}
