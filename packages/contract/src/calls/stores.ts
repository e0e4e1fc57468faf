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
