import { AlterAppIdBody, AlterTenantInfoBody, ApiKeyData, TenantBaseInfo } from '../api/users';
import { Empty } from '../common';
import { call, change } from './define';

/** A tenant's own settings: information, API keys, WeChat APPID. */
export const TENANT_CALLS = {
  baseInfo: call('/user/getbaseinfo', 'tenant.config', Empty, TenantBaseInfo, 'Tenant information and keys'),
  recreateKey: call('/user/recreatecksk', 'tenant.config', Empty, ApiKeyData, 'Regenerate the API key', change),
  alterAppId: call('/user/alertappid', 'tenant.config', AlterAppIdBody, TenantBaseInfo, 'Set the WeChat APPID', change),
  alterTenantInfo: call(
    '/user/alerttenantinfo',
    'tenant.config',
    AlterTenantInfoBody,
    TenantBaseInfo,
    'Update tenant information',
    change,
  ),
} as const;
