import type { TenantRole } from '@esl/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../infra/db/schema';
import { clientDigest, hashPassword, type PasswordCost, PRODUCTION_COST } from '../infra/lib/passwords';
import { newKeys } from '../modules/tenants/service';
import { businessStep } from './business';
import { rulesStep } from './rules';
import type { SeedContext, SeedStep } from './step';
import { templatesStep } from './templates';

export const DEMO_PASSWORD = 'demo123';
export const DEMO_TENANT_NAME = '演示零售 Demo Retail';

export const DEMO_STORES = [
  { code: 'SH001', name: '上海徐汇店 Shanghai Xuhui', address: '上海市徐汇区漕溪北路 88 号', phone: '021-5555-0101' },
  { code: 'BJ001', name: '北京朝阳店 Beijing Chaoyang', address: '北京市朝阳区建国路 66 号', phone: '010-5555-0102' },
] as const;

/** One user per role; non-admins get their stores by code. */
export const DEMO_USERS: { username: TenantRole; name: string; stores: string[] }[] = [
  { username: 'admin', name: '管理员 Admin', stores: [] },
  { username: 'editor', name: '主管 Supervisor', stores: ['SH001', 'BJ001'] },
  { username: 'manager', name: '店长 Store Manager', stores: ['SH001'] },
  { username: 'clerk', name: '店员 Store Clerk', stores: ['SH001'] },
  { username: 'stock', name: '理货员 Stock Clerk', stores: ['BJ001'] },
];

const storesStep: SeedStep = {
  name: 'stores',
  async run(ctx) {
    for (const s of DEMO_STORES) {
      const found = await ctx.db
        .selectFrom('stores')
        .select('id')
        .where('tenant_id', '=', ctx.tenantId)
        .where('code', '=', s.code)
        .executeTakeFirst();
      const id =
        found?.id ??
        (
          await ctx.db
            .insertInto('stores')
            .values({ ...s, tenant_id: ctx.tenantId, contact: '', remark: '', created_at: ctx.now })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      ctx.stores.set(s.code, id);
    }
  },
};

const usersStep: SeedStep = {
  name: 'users',
  async run(ctx) {
    for (const u of DEMO_USERS) {
      const found = await ctx.db.selectFrom('users').select('id').where('username', '=', u.username).executeTakeFirst();
      if (found) {
        ctx.users.set(u.username, found.id);
        continue;
      }
      const { id } = await ctx.db
        .insertInto('users')
        .values({
          tenant_id: ctx.tenantId,
          username: u.username,
          name: u.name,
          password_hash: ctx.passwordHash,
          roles: u.username,
          introduction: '',
          avatar_key: null,
          created_at: ctx.now,
          last_login_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ctx.users.set(u.username, id);
      const storeIds = u.stores.map((code) => ctx.stores.get(code)).filter((s): s is number => s !== undefined);
      if (storeIds.length) {
        await ctx.db
          .insertInto('user_stores')
          .values(storeIds.map((store_id) => ({ tenant_id: ctx.tenantId, user_id: id, store_id })))
          .execute();
      }
    }
  },
};

/** The steps run by `--demo`, in order. Append new ones here. */
export const demoSteps: SeedStep[] = [storesStep, usersStep, templatesStep, businessStep, rulesStep];

/** Creates (or completes) the demo tenant and the platform operator; safe to run on every start. */
export async function seedDemo(
  db: Kysely<Database>,
  now: number,
  steps: SeedStep[] = demoSteps,
  cost: PasswordCost = PRODUCTION_COST,
) {
  const passwordHash = await hashPassword(clientDigest(DEMO_PASSWORD), cost);
  const operatorCreated = await ensureOperator(db, now, passwordHash);
  return db.transaction().execute(async (trx) => {
    const found = await trx.selectFrom('tenants').select('id').where('name', '=', DEMO_TENANT_NAME).executeTakeFirst();
    const tenantId =
      found?.id ??
      (
        await trx
          .insertInto('tenants')
          .values({
            name: DEMO_TENANT_NAME,
            company: '演示零售有限公司 Demo Retail Ltd.',
            description: 'Demo data',
            account: 'admin',
            appid: '',
            ...newKeys(),
            created_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const ctx: SeedContext = {
      db: trx,
      now,
      passwordHash,
      tenantId,
      stores: new Map(),
      users: new Map(),
      templatesAdded: new Map(),
    };
    for (const step of steps) await step.run(ctx);
    return { tenantId, stores: ctx.stores, users: ctx.users, operatorCreated };
  });
}

export const OPERATOR_USERNAME = 'superadmin';

/** Creates the platform operator when there is none; answers whether it did. */
export async function ensureOperator(db: Kysely<Database>, now: number, passwordHash: string): Promise<boolean> {
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', OPERATOR_USERNAME)
    .executeTakeFirst();
  if (existing) return false;
  await db
    .insertInto('users')
    .values({
      tenant_id: null,
      username: OPERATOR_USERNAME,
      name: '平台运营 Platform operator',
      password_hash: passwordHash,
      roles: 'superadmin',
      introduction: '',
      avatar_key: null,
      created_at: now,
      last_login_at: null,
    })
    .execute();
  return true;
}
