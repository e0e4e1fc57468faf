import type { Kysely } from 'kysely';
import type { Database, OpLogTable, SysLogTable } from '../db/schema';

// Writing the operation and system logs; reading them is modules/logs.

export type NewOpLog = Omit<OpLogTable, 'id'>;
type NewSysLog = Omit<SysLogTable, 'id'>;

export async function insertOpLog(db: Kysely<Database>, row: NewOpLog): Promise<void> {
  await db.insertInto('op_logs').values(row).execute();
}

/** A station's row (`stationSn`, no store given) takes the store the station is in. */
export async function insertSysLog(db: Kysely<Database>, row: NewSysLog, stationSn?: string): Promise<void> {
  const tenantId = row.tenant_id;
  if (stationSn === undefined || tenantId === null || row.store_id !== null) {
    await db.insertInto('sys_logs').values(row).execute();
    return;
  }
  await db
    .insertInto('sys_logs')
    .values((eb) => ({
      ...row,
      store_id: eb
        .selectFrom('stations')
        .select('store_id')
        .where('tenant_id', '=', tenantId)
        .where('sn', '=', stationSn)
        .limit(1),
    }))
    .execute();
}
