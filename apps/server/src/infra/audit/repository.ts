import type { Kysely } from 'kysely';
import type { Database, OpLogTable, SysLogTable } from '../db/schema';

// Writing the operation and system logs; reading them is modules/logs.

export type NewOpLog = Omit<OpLogTable, 'id'>;
type NewSysLog = Omit<SysLogTable, 'id'>;

export async function insertOpLog(db: Kysely<Database>, row: NewOpLog): Promise<void> {
  await db.insertInto('op_logs').values(row).execute();
}

export async function insertSysLog(db: Kysely<Database>, row: NewSysLog): Promise<void> {
  await db.insertInto('sys_logs').values(row).execute();
}
