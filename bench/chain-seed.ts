import { openDatabase } from '../apps/server/src/infra/db/database';
import { migrateToLatest } from '../apps/server/src/infra/db/migrate';
import { clientDigest, hashPassword } from '../apps/server/src/infra/lib/passwords';
import { newKeys } from '../apps/server/src/modules/tenants/service';

/** The password of the chain benches' administrator `chainadmin`. */
export const CHAIN_PASSWORD = 'bench-pass';

/**
 * The start of a chain bench's database (chain.bench.ts, schedule.bench.ts): migrated, with the
 * tenant "Chain" and its administrator `chainadmin`. Answers the tenant's id; the benches add
 * their stores, products and tags in SQL.
 */
export async function seedChainTenant(url: string, now: number): Promise<number> {
  const database = openDatabase(url);
  await migrateToLatest(database);
  const { db } = database;
  const tenant = await db
    .insertInto('tenants')
    .values({
      name: 'Chain',
      company: '',
      description: '',
      account: 'chainadmin',
      appid: '',
      ...newKeys(),
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('users')
    .values({
      tenant_id: tenant.id,
      username: 'chainadmin',
      name: 'chainadmin',
      password_hash: await hashPassword(clientDigest(CHAIN_PASSWORD)),
      roles: 'admin',
      introduction: '',
      avatar_key: null,
      created_at: now,
      last_login_at: null,
    })
    .execute();
  await database.close();
  return tenant.id;
}
