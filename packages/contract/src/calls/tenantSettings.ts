import { AlterAppIdBody, AlterTenantInfoBody, ApiKeyData, TenantBaseInfo } from '../api/users';
import { Empty } from '../common';
import type { Messages } from '../errors';
import { call, change } from './define';

/** A tenant's own settings: information, API keys, WeChat APPID. */
export const TENANT_SETTINGS_CALLS = {
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

/** What the console and the operation log call each operation, in both languages. */
export const TENANT_SETTINGS_CALL_NAMES = {
  baseInfo: { 'zh-CN': '读取商户信息', en: 'Read tenant information' },
  recreateKey: { 'zh-CN': '重新生成 API 密钥', en: 'Regenerate the API key' },
  alterAppId: { 'zh-CN': '设置微信 APPID', en: 'Set the WeChat APPID' },
  alterTenantInfo: { 'zh-CN': '修改商户信息', en: 'Update tenant information' },
} as const satisfies Record<keyof typeof TENANT_SETTINGS_CALLS, Messages>;
