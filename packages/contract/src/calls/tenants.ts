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
