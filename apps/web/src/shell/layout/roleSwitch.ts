import type { Role } from '@esl/contract';

/** What a session may act as: one role, or '' for all of the user's roles. */
export type RoleChoice = Role | '';

/**
 * The picker's entries: "all my roles" first, then each role; none when there is nothing to
 * switch between (one role, and the session not narrowed to it, so there is no way back to offer).
 */
export function roleChoices(switchable: readonly Role[], acting: RoleChoice = ''): RoleChoice[] {
  return switchable.length > 1 || acting !== '' ? ['', ...switchable] : [];
}

/** The navbar.json key of a choice's label. */
export function roleLabelKey(choice: RoleChoice): string {
  return choice === '' ? 'roleAll' : `roleName.${choice}`;
}
