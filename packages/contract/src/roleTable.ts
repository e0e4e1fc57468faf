/**
 * The role → permission table as plain data, with no zod: the console's route table derives each
 * page's roles from it and loads with the first screen (`@esl/contract/roles`).
 */
export const ROLES = ['admin', 'editor', 'manager', 'clerk', 'stock', 'superadmin'] as const;
export type Role = (typeof ROLES)[number];
export const TENANT_ROLES = ['admin', 'editor', 'manager', 'clerk', 'stock'] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];

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
export type Permission = (typeof PERMISSIONS)[number];

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
  // The operator reads the platform's own log rows (tenant none): server errors, station sign-in
  // failures, tenants created or deleted. The log calls scope every reader to their tenant.
  superadmin: ['platform.tenants', 'log.read'],
};

/** The tenant roles whose permissions include `permission` (what a page needing it lists). */
export function rolesWith(permission: Permission): TenantRole[] {
  return TENANT_ROLES.filter((role) => ROLE_PERMISSIONS[role].includes(permission));
}
