import { z } from 'zod';
import { Id, Line, Paging, PasswordDigest, RequiredLine } from '../common';

export const Tenant = z.object({
  id: z.number().int(),
  name: z.string(),
  company: z.string(),
  description: z.string(),
  /** Username of the tenant's first administrator. */
  account: z.string(),
  ck: z.string(),
  storeCount: z.number().int(),
  userCount: z.number().int(),
  createdAt: z.number().int(),
});
export type Tenant = z.infer<typeof Tenant>;

export const TenantListBody = Paging.extend({ name: Line(64).optional() });
export const AddTenantBody = z.object({
  name: RequiredLine(64),
  company: Line(128).default(''),
  description: Line(500).default(''),
  account: RequiredLine(64).regex(/^[A-Za-z0-9_.@-]+$/, 'invalid'),
  sapwd: PasswordDigest,
});
export const RenewKeyBody = z.object({ id: Id });
export const ResetAccountPwdBody = z.object({ id: Id, pwd: PasswordDigest });
export const FirmwareVersion = z.object({
  id: z.number().int(),
  kind: z.enum(['ap', 'module', 'tag']),
  version: z.string(),
  name: z.string(),
  size: z.number().int(),
  createdAt: z.number().int(),
});
export const FirmwareListBody = Paging.extend({ kind: z.enum(['ap', 'module', 'tag']).optional() });
