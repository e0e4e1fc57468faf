import {
  AddTenantBody,
  FirmwareListBody,
  FirmwareVersion,
  RenewKeyBody,
  ResetAccountPwdBody,
  Tenant,
  TenantListBody,
} from '../api/tenants';
import { ApiKeyData } from '../api/users';
import { DeleteBody, DeleteData, Nothing } from '../common';
import type { Messages } from '../errors';
import { call, change, list } from './define';

/** The platform operator's calls: tenants and uploaded firmware. */
export const TENANTS_CALLS = {
  tenantList: call('/saas/sa/getlist', 'platform.tenants', TenantListBody, Tenant, 'List tenants', list),
  addTenant: call(
    '/saas/sa/addtenant',
    'platform.tenants',
    AddTenantBody,
    Tenant,
    'Add a tenant and its administrator',
    change,
  ),
  renewTenantKey: call(
    '/saas/sa/renewcksk',
    'platform.tenants',
    RenewKeyBody,
    ApiKeyData,
    "Renew a tenant's API key",
    change,
  ),
  resetAccountPwd: call(
    '/saas/sa/resetaccountpwd',
    'platform.tenants',
    ResetAccountPwdBody,
    Nothing,
    "Reset a tenant administrator's password",
    change,
  ),
  delTenant: call(
    '/saas/sa/sadeltenant',
    'platform.tenants',
    DeleteBody,
    DeleteData,
    'Delete tenants and all their data',
    change,
  ),
  firmwareList: call(
    '/saas/sa/getuploadverlist',
    'platform.tenants',
    FirmwareListBody,
    FirmwareVersion,
    'Uploaded firmware versions',
    list,
  ),
} as const;

/** What the console and the operation log call each operation, in both languages. */
export const TENANTS_CALL_NAMES = {
  tenantList: { 'zh-CN': '查询商户', en: 'List tenants' },
  addTenant: { 'zh-CN': '添加商户', en: 'Add a tenant' },
  renewTenantKey: { 'zh-CN': '更换商户 API 密钥', en: 'Renew a tenant API key' },
  resetAccountPwd: { 'zh-CN': '重置商户管理员密码', en: 'Reset a tenant administrator password' },
  delTenant: { 'zh-CN': '删除商户', en: 'Delete tenants' },
  firmwareList: { 'zh-CN': '查询固件版本', en: 'List firmware versions' },
} as const satisfies Record<keyof typeof TENANTS_CALLS, Messages>;
