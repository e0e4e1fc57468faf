import { TenantRole, type User } from '@esl/contract';

export function presentUser(
  row: {
    id: number;
    username: string;
    name: string;
    roles: string;
    introduction: string;
    created_at: number;
    last_login_at: number | null;
  },
  shops: number[],
  avatar: string,
): User {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    roles: row.roles.split(',').filter((r): r is TenantRole => TenantRole.safeParse(r).success),
    shops,
    introduction: row.introduction,
    avatar,
    createdAt: Number(row.created_at),
    lastLoginAt: row.last_login_at === null ? null : Number(row.last_login_at),
  };
}
