import { z } from 'zod';
import { Id, Line, Paging, PasswordDigest, RequiredLine } from '../common';
import { TenantRole } from '../roles';

export const User = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  roles: z.array(TenantRole),
  /** Store ids assigned to the user; admins see every store whatever this holds. */
  shops: z.array(z.number().int()),
  introduction: z.string(),
  avatar: z.string(),
  createdAt: z.number().int(),
  lastLoginAt: z.number().int().nullable(),
});
export type User = z.infer<typeof User>;

export const UserListBody = Paging.extend({
  name: Line(64).optional(),
  role: TenantRole.optional(),
});

const Roles = z.array(TenantRole).min(1, 'role');
const Shops = z.array(Id).max(2000);

export const AddUserBody = z
  .object({
    username: RequiredLine(64).regex(/^[A-Za-z0-9_.@-]+$/, 'invalid'),
    name: RequiredLine(64),
    password: PasswordDigest,
    rpassword: PasswordDigest,
    roles: Roles,
    shops: Shops.default([]),
    introduction: Line(500).default(''),
  })
  .refine((b) => b.password === b.rpassword, { path: ['rpassword'], message: 'mismatch' })
  .refine((b) => b.roles.includes('admin') || b.shops.length > 0, { path: ['shops'], message: 'store' });

/** Alter a user; the password changes only when given (SPEC.md §5). */
export const AlterUserBody = z
  .object({
    id: Id,
    name: RequiredLine(64).optional(),
    roles: Roles.optional(),
    shops: Shops.optional(),
    introduction: Line(500).optional(),
    password: PasswordDigest.optional(),
    rpassword: PasswordDigest.optional(),
  })
  .refine((b) => b.password === b.rpassword, { path: ['rpassword'], message: 'mismatch' });

export const TenantBaseInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  company: z.string(),
  description: z.string(),
  appid: z.string(),
  ck: z.string(),
  /** Masked (its last four characters); the whole sk is answered once, by /user/recreatecksk. */
  sk: z.string(),
});
export type TenantBaseInfo = z.infer<typeof TenantBaseInfo>;

export const ApiKeyData = z.object({ ck: z.string(), sk: z.string() });
/** A WeChat mini-program APPID: `wx` and 16 hexadecimal characters; empty clears it. */
export const WECHAT_APPID = /^wx[0-9a-f]{16}$/;
export const AlterAppIdBody = z.object({
  appid: z
    .string()
    .trim()
    .toLowerCase()
    .refine((s) => s === '' || WECHAT_APPID.test(s), 'appid'),
});
export const AlterTenantInfoBody = z.object({
  name: RequiredLine(64).optional(),
  company: Line(128).optional(),
  description: Line(500).optional(),
});
