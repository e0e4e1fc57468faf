import type { z } from 'zod';
import { CallbackSettings, ResendCallbacksData, SetCallbackBody } from '../api/callbacks';
import {
  BindTagsBody,
  BindTagsData,
  DeleteProductsBody,
  DeleteProductsData,
  OPEN_BASE,
  OpenAddPromotionBody,
  OpenCancelPromotionBody,
  OpenEditPromotionBody,
  OpenLedBody,
  OpenPromotionListBody,
  OpenRefreshBody,
  OpenRequestBody,
  OpenRequestData,
  OpenRequestProgress,
  OpenScheduleBody,
  OpenScheduleCancelBody,
  OpenScheduleData,
  OpenScheduleEditBody,
  OpenScheduleListBody,
  OpenStore,
  OpenStoreListBody,
  OpenTag,
  OpenTagListBody,
  OpenTagsBody,
  OpenUnbindData,
  UpsertProductsBody,
  UpsertProductsData,
} from '../api/open';
import { AddPromotionData, CancelPromotionData, Promotion } from '../api/promotions';
import { CancelScheduleData, ScheduledChange } from '../api/schedule';
import { Empty } from '../common';
import type { Messages } from '../errors';
import { type CallDef, type CallOptions, call, change, list } from './define';

/** An integration call: signed with the tenant's API key pair instead of a session. */
export type OpenCallDef<B extends z.ZodType = z.ZodType, D extends z.ZodType = z.ZodType> = Omit<
  CallDef<B, D>,
  'access'
> & { access: 'apiKey' };

function openCall<B extends z.ZodType, D extends z.ZodType, O extends CallOptions = Record<never, never>>(
  path: string,
  body: B,
  data: D,
  summary: string,
  opts?: O,
) {
  return { ...call(path, 'session', body, data, summary, opts), access: 'apiKey' as const };
}

/**
 * The integration API (docs/INTEGRATION.md): paths under OPEN_BASE, signed with the tenant's key
 * pair. Calls naming a store take its code. Calls that change what tags show (product upsert and
 * delete, refresh, LED) answer a request id: progress by /requests/get, a `request.done` callback.
 */
export const OPEN_CALLS = {
  openUpsertProducts: openCall(
    '/products/upsert',
    UpsertProductsBody,
    UpsertProductsData,
    "Add or update up to 1,000 products of a store by barcode (only the fields given change); answers the request id of their tags' new labels",
    change,
  ),
  openDeleteProducts: openCall(
    '/products/delete',
    DeleteProductsBody,
    DeleteProductsData,
    "Delete products of a store by barcode (their tags are unbound); answers the request id of their tags' new labels",
    change,
  ),
  openScheduleProducts: openCall(
    '/products/schedule',
    OpenScheduleBody,
    OpenScheduleData,
    "Schedule changes of up to 1,000 products of a store by barcode at a time on the store's clock (scope chain: in every store with the barcode, each on its own clock)",
    change,
  ),
  openScheduleList: openCall(
    '/products/schedule/list',
    OpenScheduleListBody,
    ScheduledChange,
    "List a store's scheduled changes, pending first (soonest first)",
    list,
  ),
  openScheduleCancel: openCall(
    '/products/schedule/cancel',
    OpenScheduleCancelBody,
    CancelScheduleData,
    'Cancel pending scheduled changes of a store by id (all or none)',
    change,
  ),
  openScheduleEdit: openCall(
    '/products/schedule/edit',
    OpenScheduleEditBody,
    ScheduledChange,
    "Change the time (store's clock) or the fields of a pending scheduled change of a store by id",
    change,
  ),
  openPromotionList: openCall(
    '/promotions/list',
    OpenPromotionListBody,
    Promotion,
    "List a store's promotions (started first, then upcoming soonest first, then the rest)",
    list,
  ),
  openAddPromotion: openCall(
    '/promotions/add',
    OpenAddPromotionBody,
    AddPromotionData,
    "Add a promotion to a store (price, text, products by barcode or by a field value, start and end on the store's " +
      'clock; scope chain: in every store of the tenant, each on its own clock); labels switch at its times on their own',
    change,
  ),
  openEditPromotion: openCall(
    '/promotions/edit',
    OpenEditPromotionBody,
    Promotion,
    'Change a promotion of a store that has not ended',
    change,
  ),
  openCancelPromotion: openCall(
    '/promotions/cancel',
    OpenCancelPromotionBody,
    CancelPromotionData,
    'Cancel promotions of a store that have not ended, by id (all or none); their tags show the regular label',
    change,
  ),
  openBindTags: openCall(
    '/tags/bind',
    BindTagsBody,
    BindTagsData,
    'Bind tags (hardware ID) to products (barcode), up to 100 pairs',
    change,
  ),
  openUnbindTags: openCall('/tags/unbind', OpenTagsBody, OpenUnbindData, 'Unbind tags by hardware ID', change),
  openTagList: openCall(
    '/tags/list',
    OpenTagListBody,
    OpenTag,
    'List the tags of a store with their status and last result',
    list,
  ),
  openRefreshTags: openCall(
    '/tags/refresh',
    OpenRefreshBody,
    OpenRequestData,
    'Refresh tags: render and deliver their labels; answers the request id at once',
    change,
  ),
  openLedTags: openCall(
    '/tags/led',
    OpenLedBody,
    OpenRequestData,
    'Flash the LED of tags to find them; answers the request id at once',
    change,
  ),
  openRequestProgress: openCall(
    '/requests/get',
    OpenRequestBody,
    OpenRequestProgress,
    'Progress and per-tag results (up to 2,000 tags) of a request (product upsert or delete, refresh, LED)',
  ),
  openStoreList: openCall('/stores/list', OpenStoreListBody, OpenStore, "List the tenant's stores", list),
  openCallbackGet: openCall('/callback/get', Empty, CallbackSettings, "The tenant's callback URL ('' when none)"),
  openCallbackSet: openCall(
    '/callback/set',
    SetCallbackBody,
    CallbackSettings,
    "Set the tenant's callback URL (checked against private and link-local addresses); '' stops callbacks",
    change,
  ),
  openCallbackResend: openCall(
    '/callback/resend',
    Empty,
    ResendCallbacksData,
    "Send the tenant's given-up callback events again, each tag's in order, with a full retry schedule",
    change,
  ),
} as const;

/** What the operation log calls each integration call, in both languages. */
export const OPEN_CALL_NAMES = {
  openUpsertProducts: { 'zh-CN': '接口批量写入商品', en: 'API: upsert products' },
  openDeleteProducts: { 'zh-CN': '接口删除商品', en: 'API: delete products' },
  openScheduleProducts: { 'zh-CN': '接口定时变更商品', en: 'API: schedule product changes' },
  openScheduleList: { 'zh-CN': '接口查询定时变更', en: 'API: list scheduled changes' },
  openScheduleCancel: { 'zh-CN': '接口取消定时变更', en: 'API: cancel scheduled changes' },
  openScheduleEdit: { 'zh-CN': '接口修改定时变更', en: 'API: edit a scheduled change' },
  openPromotionList: { 'zh-CN': '接口查询促销', en: 'API: list promotions' },
  openAddPromotion: { 'zh-CN': '接口添加促销', en: 'API: add a promotion' },
  openEditPromotion: { 'zh-CN': '接口修改促销', en: 'API: edit a promotion' },
  openCancelPromotion: { 'zh-CN': '接口取消促销', en: 'API: cancel promotions' },
  openBindTags: { 'zh-CN': '接口绑定价签', en: 'API: bind tags' },
  openUnbindTags: { 'zh-CN': '接口解绑价签', en: 'API: unbind tags' },
  openTagList: { 'zh-CN': '接口查询价签', en: 'API: list tags' },
  openRefreshTags: { 'zh-CN': '接口刷新价签', en: 'API: refresh tags' },
  openLedTags: { 'zh-CN': '接口闪灯', en: 'API: flash LEDs' },
  openRequestProgress: { 'zh-CN': '接口查询操作进度', en: 'API: request progress' },
  openStoreList: { 'zh-CN': '接口查询门店', en: 'API: list stores' },
  openCallbackGet: { 'zh-CN': '接口读取回调地址', en: 'API: read the callback URL' },
  openCallbackSet: { 'zh-CN': '接口设置回调地址', en: 'API: set the callback URL' },
  openCallbackResend: { 'zh-CN': '接口重发已放弃的回调', en: 'API: resend given-up callbacks' },
} as const satisfies Record<keyof typeof OPEN_CALLS, Messages>;

export type OpenCalls = typeof OPEN_CALLS;
export type OpenCallName = keyof OpenCalls;
/** The full path of an integration call (OPEN_BASE + its path), as the operation log stores it. */
export const openPath = (name: OpenCallName): string => OPEN_BASE + OPEN_CALLS[name].path;
