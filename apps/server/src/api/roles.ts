import { Role, TENANT_ROLES } from '@esl/contract';

/** Role names from a `users.roles` cell (comma separated); unknown names are dropped. */
export function parseRoles(text: string): Role[] {
  return text.split(',').filter((r): r is Role => Role.safeParse(r).success);
}

/**
 * The roles a user holding `held` may act as (/user/changerole): each tenant role they hold, and
 * every tenant role for an admin (a strict narrowing of what admin may do). Platform operators
 * have none. Listed in the contract's order.
 */
export function switchableRoles(held: readonly Role[]): Role[] {
  if (held.includes('superadmin')) return [];
  if (held.includes('admin')) return [...TENANT_ROLES];
  return TENANT_ROLES.filter((r) => held.includes(r));
}

/**
 * What a session acts as: its stored role while the user may still act as it; otherwise (no role
 * stored, or the user has since lost what allowed it) all of the roles held, never more.
 */
export function actingAs(held: readonly Role[], stored: string | null): { roles: Role[]; acting: Role | null } {
  const role = Role.safeParse(stored);
  if (stored !== null && role.success && switchableRoles(held).includes(role.data)) {
    return { roles: [role.data], acting: role.data };
  }
  return { roles: [...held], acting: null };
}
