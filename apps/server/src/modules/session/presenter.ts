import type { InfoData, Permission } from '@esl/contract';
import type { Caller } from '../../api/context';
import { switchableRoles } from '../../api/roles';
import { presentShop } from '../stores/service';

export function presentInfo(
  caller: Caller,
  avatar: string,
  shops: { id: number; name: string }[],
  current: { id: number; name: string } | null,
  permissions: Permission[],
): InfoData {
  return {
    id: caller.userId,
    roles: caller.roles,
    name: caller.name,
    username: caller.username,
    avatar,
    introduction: caller.introduction,
    shop: shops.map(presentShop),
    curshop: current ? { id: current.id, name: current.name } : null,
    tenant:
      caller.tenantId === null ? null : { id: caller.tenantId, name: caller.tenantName, company: caller.tenantCompany },
    permissions,
    role: caller.actingRole ?? '',
    switchable: switchableRoles(caller.heldRoles),
  };
}
