import type { Shop, Store } from '@esl/contract';
import type { StoreRow } from '../../infra/db/schema';

export function presentStore(row: StoreRow): Store {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    key: String(row.id),
    address: row.address,
    contact: row.contact,
    phone: row.phone,
    remark: row.remark,
    createdAt: Number(row.created_at),
  };
}

export function presentShop(row: { id: number; name: string }): Shop {
  return { id: row.id, name: row.name, key: String(row.id) };
}
