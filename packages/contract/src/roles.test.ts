import { describe, expect, it } from 'vitest';
import { hasPermission, PERMISSIONS, permissionsOf, ROLE_PERMISSIONS } from './roles';

describe('role → permission table', () => {
  it('gives a tenant admin every tenant permission and nothing of the platform', () => {
    expect(permissionsOf(['admin']).size).toBe(PERMISSIONS.length - 1);
    expect(hasPermission(['admin'], 'platform.tenants')).toBe(false);
  });

  it('gives only the platform operator the tenant management', () => {
    const holders = Object.entries(ROLE_PERMISSIONS)
      .filter(([, perms]) => perms.includes('platform.tenants'))
      .map(([role]) => role);
    expect(holders).toEqual(['superadmin']);
    expect([...permissionsOf(['superadmin'])]).toEqual(['platform.tenants', 'log.read']);
  });

  it('lets no role but admin manage users or tenant settings', () => {
    for (const role of ['editor', 'manager', 'clerk', 'stock'] as const) {
      expect(hasPermission([role], 'user.write')).toBe(false);
      expect(hasPermission([role], 'tenant.config')).toBe(false);
    }
  });

  it('combines the permissions of several roles', () => {
    const both = permissionsOf(['clerk', 'stock']);
    expect(both.has('product.import')).toBe(true);
    expect(both.has('tag.operate')).toBe(true);
    expect(both.has('store.write')).toBe(false);
  });
});
