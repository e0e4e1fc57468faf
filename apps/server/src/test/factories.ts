import type { Role } from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { clientDigest, hashPassword } from '../infra/lib/passwords';
import { randomHex } from '../infra/lib/random';
import { newKeys } from '../modules/tenants/service';
import { callApi } from './harness';

export const PASSWORD = 'secret-1';

const hashes = new Map<string, Promise<string>>();
/** argon2 is slow on purpose; tests reuse one hash per password. */
function hashOf(app: FastifyInstance, password: string): Promise<string> {
  let h = hashes.get(password);
  if (!h) {
    h = hashPassword(clientDigest(password), app.services.config.passwordCost);
    hashes.set(password, h);
  }
  return h;
}

const unique = (prefix: string) => `${prefix}${randomHex(4)}`;

export async function buildTenant(app: FastifyInstance, fields: { name?: string } = {}) {
  return app.services.db
    .insertInto('tenants')
    .values({
      name: fields.name ?? unique('Tenant '),
      company: 'Company',
      description: '',
      account: '',
      appid: '',
      ...newKeys(),
      created_at: app.services.config.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function buildStore(
  app: FastifyInstance,
  tenantId: number,
  fields: { name?: string; code?: string } = {},
) {
  return app.services.db
    .insertInto('stores')
    .values({
      tenant_id: tenantId,
      name: fields.name ?? unique('Store '),
      code: fields.code ?? unique('S'),
      address: '',
      contact: '',
      phone: '',
      remark: '',
      created_at: app.services.config.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function buildUser(
  app: FastifyInstance,
  fields: { tenantId: number | null; roles?: Role[]; stores?: number[]; username?: string; password?: string },
) {
  const user = await app.services.db
    .insertInto('users')
    .values({
      tenant_id: fields.tenantId,
      username: fields.username ?? unique('user'),
      name: 'Test User',
      password_hash: await hashOf(app, fields.password ?? PASSWORD),
      roles: (fields.roles ?? ['admin']).join(','),
      introduction: '',
      avatar_key: null,
      created_at: app.services.config.now(),
      last_login_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const stores = fields.stores ?? [];
  if (stores.length && fields.tenantId !== null) {
    await app.services.db
      .insertInto('user_stores')
      .values(stores.map((store_id) => ({ tenant_id: fields.tenantId as number, user_id: user.id, store_id })))
      .execute();
  }
  return user;
}

export async function login(app: FastifyInstance, username: string, password = PASSWORD): Promise<string> {
  const res = await callApi<{ token: string }>(app, '/user/login', { username, password: clientDigest(password) });
  expect(res.code, res.msg).toBe(0);
  return res.data.token;
}

/** A tenant with two stores, an admin and one user per other role (assigned the first store). */
export async function buildWorld(app: FastifyInstance) {
  const tenant = await buildTenant(app);
  const storeA = await buildStore(app, tenant.id);
  const storeB = await buildStore(app, tenant.id);
  const users = {} as Record<'admin' | 'editor' | 'manager' | 'clerk' | 'stock', { id: number; username: string }>;
  const tokens = {} as Record<keyof typeof users, string>;
  for (const role of ['admin', 'editor', 'manager', 'clerk', 'stock'] as const) {
    users[role] = await buildUser(app, {
      tenantId: tenant.id,
      roles: [role],
      stores: role === 'admin' ? [] : [storeA.id],
    });
    tokens[role] = await login(app, users[role].username);
  }
  return { tenant, stores: [storeA, storeB], users, tokens };
}

export async function buildOperator(app: FastifyInstance) {
  const user = await buildUser(app, { tenantId: null, roles: ['superadmin'] });
  return { user, token: await login(app, user.username) };
}
