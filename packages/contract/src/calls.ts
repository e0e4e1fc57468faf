import { z } from 'zod';
import { OpLog, OpLogListBody, SysLog, SysLogListBody } from './api/logs';
import {
  AvatarData,
  ChangeRoleBody,
  ChangeRoleData,
  InfoData,
  LoginBody,
  LoginData,
  PdaConfigData,
  SetCurrShopBody,
  SetCurrShopData,
} from './api/session';
import {
  AddStoreBody,
  AlterStoreBody,
  GetStoreParamsBody,
  SetStoreParamsBody,
  Store,
  StoreListBody,
  StoreParamsData,
} from './api/stores';
import { ShopStatic, TagChangeStat, TagChangeStatBody, TagModelDistribution, TagShopDistribution } from './api/summary';
import {
  AddTenantBody,
  FirmwareListBody,
  FirmwareVersion,
  RenewKeyBody,
  ResetAccountPwdBody,
  Tenant,
  TenantListBody,
} from './api/tenants';
import {
  AddUserBody,
  AlterAppIdBody,
  AlterTenantInfoBody,
  AlterUserBody,
  ApiKeyData,
  TenantBaseInfo,
  User,
  UserListBody,
} from './api/users';
import { BUSINESS_CALLS } from './calls/business';
import { TEMPLATE_CALLS } from './calls/templates';
import { DeleteBody, DeleteData, Empty, Nothing } from './common';
import type { Permission } from './roles';

/**
 * Who may make a call: anyone, any signed-in user, or a user whose roles grant the permission.
 * `self` calls act on the caller's own account and are open to every signed-in user.
 */
export type Access = 'public' | 'session' | Permission;

export interface CallDef<B extends z.ZodType = z.ZodType, D extends z.ZodType = z.ZodType> {
  path: string;
  access: Access;
  body: B;
  data: D;
  /** List calls answer `data` as an array of rows plus `count`. */
  list: boolean;
  /** False until the issue that builds it lands: the server answers NOT_AVAILABLE. */
  ready: boolean;
  summary: string;
  /** The call changes data, so it writes an operation-log row. */
  changes: boolean;
  /** For a changing call that some bodies only read: true when this body reads, and so is not logged. */
  readsOnly?: (body: Record<string, unknown>) => boolean;
}

interface CallOpts {
  list?: boolean;
  ready?: boolean;
  changes?: boolean;
}

/** A call whose `list` flag is known to the type system, so handlers of list calls must answer rows. */
export type TypedCallDef<B extends z.ZodType, D extends z.ZodType, L extends boolean> = CallDef<B, D> & { list: L };

function call<B extends z.ZodType, D extends z.ZodType, O extends CallOpts = Record<never, never>>(
  path: string,
  access: Access,
  body: B,
  data: D,
  summary: string,
  opts?: O,
): TypedCallDef<B, D, O['list'] extends true ? true : false> {
  const def: CallDef<B, D> = {
    path,
    access,
    body,
    data,
    summary,
    list: opts?.list ?? false,
    ready: opts?.ready ?? true,
    changes: opts?.changes ?? false,
  };
  return def as TypedCallDef<B, D, O['list'] extends true ? true : false>;
}

const pending = (path: string, access: Access, summary: string, changes = false) =>
  call(path, access, z.object({}).loose(), z.unknown(), summary, { ready: false, changes });

const list = { list: true } as const;
const change = { changes: true } as const;

/** Every call of SPEC.md §7 (paths under /api), plus the few the console needs whose path SPEC.md leaves open. */
export const CALLS = {
  // Session and account
  login: call('/user/login', 'public', LoginBody, LoginData, 'Sign in; answers a session token'),
  info: call('/user/info', 'session', Empty, InfoData, 'The signed-in user, their stores and current store'),
  logout: call('/user/logout', 'session', Empty, Nothing, 'Revoke the current session', change),
  setCurrShop: call(
    '/user/setcurrshop',
    'session',
    SetCurrShopBody,
    SetCurrShopData,
    'Set the current store (JSON or form body)',
    change,
  ),
  changeRole: call(
    '/user/changerole',
    'session',
    ChangeRoleBody,
    ChangeRoleData,
    "Act as one role (or '' for all of them): answers a derived token and revokes the caller's",
    change,
  ),
  avatar: call(
    '/user/avatar',
    'session',
    Empty,
    AvatarData,
    'Upload the avatar (multipart, JPG or PNG ≤ 2 MB)',
    change,
  ),
  pdaConfig: call('/user/pdaconf', 'session', Empty, PdaConfigData, 'PDA configuration for the navbar QR code'),
  // Users and tenant parameters
  userList: call('/user/UserList', 'user.read', UserListBody, User, 'List users', list),
  addUser: call('/user/addusr', 'user.write', AddUserBody, User, 'Add a user', change),
  delUser: call('/user/delusr', 'user.write', DeleteBody, DeleteData, 'Delete users', change),
  alterUser: call('/user/alertusr', 'session', AlterUserBody, User, 'Update a user (others need user.write)', change),
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
  // Stores
  storeList: call('/mgr/station/list', 'store.read', StoreListBody, Store, 'List stores visible to the user', list),
  addStore: call('/mgr/station/add', 'store.write', AddStoreBody, Store, 'Add a store', change),
  alterStore: call('/mgr/station/alert', 'store.write', AlterStoreBody, Store, 'Update a store', change),
  delStore: call('/mgr/station/delete', 'store.write', DeleteBody, DeleteData, 'Delete stores', change),
  getStoreParams: call('/mgr/station/getparame', 'store.read', GetStoreParamsBody, StoreParamsData, 'Store parameters'),
  setStoreParams: call(
    '/mgr/station/setparame',
    'store.params',
    SetStoreParamsBody,
    StoreParamsData,
    'Set store parameters',
    change,
  ),
  getStoreConf: call(
    '/mgr/station/getconf',
    'session',
    Empty,
    PdaConfigData,
    'Connection configuration of the current store',
  ),
  // Logs
  opLog: call('/log/taglog/oplist', 'log.read', OpLogListBody, OpLog, 'Operation log', list),
  sysLog: call('/log/taglog/syslist', 'log.read', SysLogListBody, SysLog, 'System log', list),
  tagTaskLog: pending('/log/taglog/esltasklist', 'log.read', 'Tag task log'),
  // Platform operator
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
  // Dashboard
  shopStatic: call(
    '/sumary/getshopstatic',
    'dashboard.read',
    Empty,
    ShopStatic,
    'Figures of the current store: base stations, tags by status, bound tags, products; templates; totals of the visible stores',
  ),
  tagModelDistribution: call(
    '/sumary/gettagmodeldistribution',
    'dashboard.read',
    Empty,
    TagModelDistribution,
    'Tags of the current store per model, most first',
  ),
  tagShopDistribution: call(
    '/sumary/gettagshopdistribution',
    'dashboard.read',
    Empty,
    TagShopDistribution,
    'Tags per store the caller may see, most first (stores without tags included)',
  ),
  tagChangeStat: call(
    '/sumary/gettagchanglogsatat',
    'dashboard.read',
    TagChangeStatBody,
    TagChangeStat,
    'Tag and product changes per day in the current store (successful operation-log rows), last `days` days',
  ),
  // Templates, field mapping, label preview (issue 5)
  ...TEMPLATE_CALLS,
  // Base stations, tags, products (issue 4)
  ...BUSINESS_CALLS,
  // Upgrades
  upgradeModules: pending('/res/update/onupdatemodules', 'firmware.upgrade', 'Upgrade base-station modules', true),
  upgradeStations: pending('/res/update/onUpdateap', 'firmware.upgrade', 'Upgrade base stations', true),
  upgradeTags: pending('/res/update/onUpdateesl', 'firmware.upgrade', 'Upgrade tags', true),
  stopTagUpgrade: pending('/res/update/onstopupdateesl', 'firmware.upgrade', 'Stop a tag upgrade', true),
  // Data log
  pushLog: pending('/data/pushexp/List', 'log.read', 'Data push log'),
} as const;

export type Calls = typeof CALLS;
export type CallName = keyof Calls;
export type BodyOf<N extends CallName> = z.input<Calls[N]['body']>;
export type ParsedBodyOf<N extends CallName> = z.output<Calls[N]['body']>;
export type DataOf<N extends CallName> = z.output<Calls[N]['data']>;
/** Names of the calls that answer a page of rows plus `count`. */
export type ListCallName = { [N in CallName]: Calls[N]['list'] extends true ? N : never }[CallName];

export const API_BASE = '/api';
export const ALL_CALLS: readonly CallDef[] = Object.values(CALLS);
