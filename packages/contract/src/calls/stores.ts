import { PdaConfigData } from '../api/session';
import {
  AddStoreBody,
  AlterStoreBody,
  GetStoreParamsBody,
  SetStoreParamsBody,
  Store,
  StoreListBody,
  StoreParamsData,
} from '../api/stores';
import { DeleteBody, DeleteData, Empty } from '../common';
import type { Messages } from '../errors';
import { call, change, list } from './define';

/** Stores and their parameters. */
export const STORE_CALLS = {
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
} as const;

/** What the console and the operation log call each operation, in both languages. */
export const STORE_CALL_NAMES = {
  storeList: { 'zh-CN': '查询门店', en: 'List stores' },
  addStore: { 'zh-CN': '添加门店', en: 'Add a store' },
  alterStore: { 'zh-CN': '修改门店', en: 'Update a store' },
  delStore: { 'zh-CN': '删除门店', en: 'Delete stores' },
  getStoreParams: { 'zh-CN': '读取门店参数', en: 'Read store parameters' },
  setStoreParams: { 'zh-CN': '设置门店参数', en: 'Set store parameters' },
  getStoreConf: { 'zh-CN': '读取门店连接配置', en: 'Read store connection settings' },
} as const satisfies Record<keyof typeof STORE_CALLS, Messages>;
