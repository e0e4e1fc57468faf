// Generated from docs/openapi.json by scripts/generate-client.ts: do not edit by hand.
// Refresh with `node --import tsx scripts/generate-client.ts` (scripts/client.test.ts fails when this file is stale).

/** The product version the document describes (electronic price tag system API). */
export const API_VERSION = '0.4.2';

/** The headers of a signed call (security schemes openKey, openTimestamp, openNonce, openSignature). */
export const SIGNING_HEADERS = {
  key: 'x-esl-key',
  timestamp: 'x-esl-timestamp',
  nonce: 'x-esl-nonce',
  signature: 'x-esl-signature',
} as const;

/** A refused call: a code other than 0 (info.description lists them), a message in the caller's language */
export interface Refusal {
  /** at least 1 */
  code: number;
  msg: string;
  data: null;
}

// /open/v1/promotions/add: Add a promotion to a store (price, text, products by barcode or by a field value, start and end on the store's clock; scope chain: in every store of the tenant, each on its own clock); labels switch at its times on their own

/** The body of /open/v1/promotions/add. */
export interface AddPromotionBody {
  /** at most 100 characters, default "" */
  name?: string;
  /** at most 100 characters, default "" */
  text?: string;
  price: string | number;
  /** at most 2000 items, default [] */
  barcodes?: string[];
  /** at most 64 characters, default "" */
  matchKey?: string;
  /** at most 100 characters, default "" */
  matchValue?: string;
  /** pattern `^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$` */
  startAt: string;
  /** pattern `^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$` */
  endAt: string;
  /** default "store" */
  scope?: 'store' | 'chain';
  /** 1–32 characters */
  store: string;
}

/** The data of /open/v1/promotions/add's success. */
export interface AddPromotionData {
  ids: number[];
  stores: number;
}

/** A success of /open/v1/promotions/add. */
export interface AddPromotionSuccess {
  code: 0;
  msg: string;
  data: AddPromotionData;
}

// /open/v1/tags/bind: Bind tags (hardware ID) to products (barcode), up to 100 pairs

/** The body of /open/v1/tags/bind. */
export interface BindTagsBody {
  /** 1–32 characters */
  store: string;
  /** 1–100 items */
  bindings: {
    /** pattern `^[0-9A-Fa-f]{8,16}$` */
    hardwareId: string;
    /** 1–64 characters, pattern `^[0-9A-Za-z._-]{1,64}$` */
    barcode: string;
  }[];
}

/** The data of /open/v1/tags/bind's success. */
export interface BindTagsData {
  bound: number;
}

/** A success of /open/v1/tags/bind. */
export interface BindTagsSuccess {
  code: 0;
  msg: string;
  data: BindTagsData;
}

// /open/v1/callback/get: The tenant's callback URL ('' when none)

/** The body of /open/v1/callback/get. */
export type CallbackGetBody = Record<string, never>;

/** The data of /open/v1/callback/get's success. */
export interface CallbackGetData {
  url: string;
  priceWrongMinutes: number;
}

/** A success of /open/v1/callback/get. */
export interface CallbackGetSuccess {
  code: 0;
  msg: string;
  data: CallbackGetData;
}

// /open/v1/callback/resend: Send the tenant's given-up callback events again, each tag's in order, with a full retry schedule

/** The body of /open/v1/callback/resend. */
export type CallbackResendBody = Record<string, never>;

/** The data of /open/v1/callback/resend's success. */
export interface CallbackResendData {
  resent: number;
}

/** A success of /open/v1/callback/resend. */
export interface CallbackResendSuccess {
  code: 0;
  msg: string;
  data: CallbackResendData;
}

// /open/v1/callback/set: Set the tenant's callback URL (checked against private and link-local addresses); '' stops callbacks

/** The body of /open/v1/callback/set. */
export interface CallbackSetBody {
  /** at most 500 characters */
  url: string;
  /** 1–10080 */
  priceWrongMinutes?: number;
}

/** The data of /open/v1/callback/set's success. */
export interface CallbackSetData {
  url: string;
  priceWrongMinutes: number;
}

/** A success of /open/v1/callback/set. */
export interface CallbackSetSuccess {
  code: 0;
  msg: string;
  data: CallbackSetData;
}

// /open/v1/promotions/cancel: Cancel promotions of a store that have not ended, by id (all or none); their tags show the regular label

/** The body of /open/v1/promotions/cancel. */
export interface CancelPromotionBody {
  /** 1–32 characters */
  store: string;
  /** 1–2000 items */
  ids: number[];
}

/** The data of /open/v1/promotions/cancel's success. */
export interface CancelPromotionData {
  cancelled: number;
}

/** A success of /open/v1/promotions/cancel. */
export interface CancelPromotionSuccess {
  code: 0;
  msg: string;
  data: CancelPromotionData;
}

// /open/v1/products/delete: Delete products of a store by barcode (their tags are unbound); answers the request id of their tags' new labels

/** The body of /open/v1/products/delete. */
export interface DeleteProductsBody {
  /** 1–32 characters */
  store: string;
  /** 1–1000 items */
  barcodes: string[];
}

/** The data of /open/v1/products/delete's success. */
export interface DeleteProductsData {
  deleted: number;
  requestId: number;
  tasks: number;
}

/** A success of /open/v1/products/delete. */
export interface DeleteProductsSuccess {
  code: 0;
  msg: string;
  data: DeleteProductsData;
}

// /open/v1/promotions/edit: Change a promotion of a store that has not ended

/** The body of /open/v1/promotions/edit. */
export interface EditPromotionBody {
  /** at most 2147483647, more than 0 */
  id: number;
  /** at most 100 characters */
  name?: string;
  /** at most 100 characters */
  text?: string;
  price?: string | number;
  /** at most 2000 items */
  barcodes?: string[];
  /** at most 64 characters */
  matchKey?: string;
  /** at most 100 characters */
  matchValue?: string;
  /** pattern `^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$` */
  startAt?: string;
  /** pattern `^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$` */
  endAt?: string;
  /** 1–32 characters */
  store: string;
}

/** The data of /open/v1/promotions/edit's success. */
export interface EditPromotionData {
  id: number;
  storeId: number;
  name: string;
  text: string;
  price: string;
  barcodes: string[];
  matchKey: string;
  matchValue: string;
  start: number;
  end: number;
  startAt: string;
  endAt: string;
  timeZone: string;
  state: 'pending' | 'started' | 'ended' | 'cancelled';
  createdAt: number;
  updatedAt: number;
}

/** A success of /open/v1/promotions/edit. */
export interface EditPromotionSuccess {
  code: 0;
  msg: string;
  data: EditPromotionData;
}

// /open/v1/tags/led: Flash the LED of tags to find them; answers the request id at once

/** The body of /open/v1/tags/led. */
export interface LedTagsBody {
  /** 1–32 characters */
  store: string;
  /** 1–1000 items */
  hardwareIds: string[];
  led: {
    /** default "green" */
    colour?: 'red' | 'green' | 'blue' | 'yellow' | 'cyan' | 'magenta' | 'white';
    /** 1–10000, default 500 */
    onMs?: number;
    /** 0–10000, default 500 */
    offMs?: number;
    /** 1–100, default 3 */
    count?: number;
    /** 1–1000, default 1 */
    repeat?: number;
  };
}

/** The data of /open/v1/tags/led's success. */
export interface LedTagsData {
  requestId: number;
  tasks: number;
}

/** A success of /open/v1/tags/led. */
export interface LedTagsSuccess {
  code: 0;
  msg: string;
  data: LedTagsData;
}

// /open/v1/promotions/list: List a store's promotions (started first, then upcoming soonest first, then the rest)

/** The body of /open/v1/promotions/list. */
export interface PromotionListBody {
  /** 1–1000000, default 1 */
  page?: number;
  /** 1–2000, default 20 */
  limit?: number;
  /** 1–32 characters */
  store: string;
  state?: 'pending' | 'started' | 'ended' | 'cancelled';
}

/** One row of /open/v1/promotions/list's data. */
export interface PromotionListItem {
  id: number;
  storeId: number;
  name: string;
  text: string;
  price: string;
  barcodes: string[];
  matchKey: string;
  matchValue: string;
  start: number;
  end: number;
  startAt: string;
  endAt: string;
  timeZone: string;
  state: 'pending' | 'started' | 'ended' | 'cancelled';
  createdAt: number;
  updatedAt: number;
}

/** A success of /open/v1/promotions/list. */
export interface PromotionListSuccess {
  code: 0;
  msg: string;
  data: PromotionListItem[];
  /** Rows before paging. */
  count: number;
}

// /open/v1/tags/refresh: Refresh tags: render and deliver their labels; answers the request id at once

/** The body of /open/v1/tags/refresh. */
export interface RefreshTagsBody {
  /** 1–32 characters */
  store: string;
  /** 1–1000 items */
  hardwareIds: string[];
  /** default false */
  force?: boolean;
}

/** The data of /open/v1/tags/refresh's success. */
export interface RefreshTagsData {
  requestId: number;
  tasks: number;
}

/** A success of /open/v1/tags/refresh. */
export interface RefreshTagsSuccess {
  code: 0;
  msg: string;
  data: RefreshTagsData;
}

// /open/v1/requests/get: Progress and per-tag results (up to 2,000 tags) of a request (product upsert or delete, refresh, LED)

/** The body of /open/v1/requests/get. */
export interface RequestProgressBody {
  /** at most 2147483647, more than 0 */
  requestId: number;
}

/** The data of /open/v1/requests/get's success. */
export interface RequestProgressData {
  requestId: number;
  kind: string;
  status: string;
  total: number;
  done: number;
  failed: number;
  results: {
    hardwareId: string;
    state: string;
    code: string | null;
  }[];
}

/** A success of /open/v1/requests/get. */
export interface RequestProgressSuccess {
  code: 0;
  msg: string;
  data: RequestProgressData;
}

// /open/v1/products/schedule/cancel: Cancel pending scheduled changes of a store by id (all or none)

/** The body of /open/v1/products/schedule/cancel. */
export interface ScheduleCancelBody {
  /** 1–32 characters */
  store: string;
  /** 1–2000 items */
  ids: number[];
}

/** The data of /open/v1/products/schedule/cancel's success. */
export interface ScheduleCancelData {
  cancelled: number;
}

/** A success of /open/v1/products/schedule/cancel. */
export interface ScheduleCancelSuccess {
  code: 0;
  msg: string;
  data: ScheduleCancelData;
}

// /open/v1/products/schedule/edit: Change the time (store's clock) or the fields of a pending scheduled change of a store by id

/** The body of /open/v1/products/schedule/edit. */
export interface ScheduleEditBody {
  /** 1–32 characters */
  store: string;
  /** at most 2147483647, more than 0 */
  id: number;
  /** pattern `^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$` */
  at?: string;
  changes?: {
    /** 1–200 characters */
    name?: string;
    price?: string | number;
    originalPrice?: string | number | null;
    /** at most 20 characters */
    unit?: string;
    /** at most 64 characters */
    spec?: string;
    /** at most 64 characters */
    origin?: string;
    /** at most 32 characters */
    grade?: string;
    /** at most 500 characters */
    qrcode?: string;
    custom?: Record<string, string>;
  };
}

/** The data of /open/v1/products/schedule/edit's success. */
export interface ScheduleEditData {
  id: number;
  storeId: number;
  productId: number;
  barcode: string;
  productName: string;
  changes: Record<string, unknown>;
  at: number;
  localAt: string;
  timeZone: string;
  status: 'pending' | 'applied' | 'cancelled';
  note: string;
  createdAt: number;
  updatedAt: number;
  appliedAt: number | null;
  progress: {
    held: number;
    tags: number;
  } | null;
}

/** A success of /open/v1/products/schedule/edit. */
export interface ScheduleEditSuccess {
  code: 0;
  msg: string;
  data: ScheduleEditData;
}

// /open/v1/products/schedule/list: List a store's scheduled changes, pending first (soonest first)

/** The body of /open/v1/products/schedule/list. */
export interface ScheduleListBody {
  /** 1–1000000, default 1 */
  page?: number;
  /** 1–2000, default 20 */
  limit?: number;
  /** 1–32 characters */
  store: string;
  status?: 'pending' | 'applied' | 'cancelled';
  /** 1–64 characters, pattern `^[0-9A-Za-z._-]{1,64}$` */
  barcode?: string;
}

/** One row of /open/v1/products/schedule/list's data. */
export interface ScheduleListItem {
  id: number;
  storeId: number;
  productId: number;
  barcode: string;
  productName: string;
  changes: Record<string, unknown>;
  at: number;
  localAt: string;
  timeZone: string;
  status: 'pending' | 'applied' | 'cancelled';
  note: string;
  createdAt: number;
  updatedAt: number;
  appliedAt: number | null;
  progress: {
    held: number;
    tags: number;
  } | null;
}

/** A success of /open/v1/products/schedule/list. */
export interface ScheduleListSuccess {
  code: 0;
  msg: string;
  data: ScheduleListItem[];
  /** Rows before paging. */
  count: number;
}

// /open/v1/products/schedule: Schedule changes of up to 1,000 products of a store by barcode at a time on the store's clock (scope chain: in every store with the barcode, each on its own clock)

/** The body of /open/v1/products/schedule. */
export interface ScheduleProductsBody {
  /** 1–32 characters */
  store: string;
  /** pattern `^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$` */
  at: string;
  /** default "store" */
  scope?: 'store' | 'chain';
  /** at most 200 characters, default "" */
  note?: string;
  /** 1–1000 items */
  changes: {
    /** 1–64 characters, pattern `^[0-9A-Za-z._-]{1,64}$` */
    barcode: string;
    /** 1–200 characters */
    name?: string;
    price?: string | number;
    originalPrice?: string | number | null;
    /** at most 20 characters */
    unit?: string;
    /** at most 64 characters */
    spec?: string;
    /** at most 64 characters */
    origin?: string;
    /** at most 32 characters */
    grade?: string;
    /** at most 500 characters */
    qrcode?: string;
    custom?: Record<string, string>;
  }[];
}

/** The data of /open/v1/products/schedule's success. */
export interface ScheduleProductsData {
  ids: number[];
  stores: number;
}

/** A success of /open/v1/products/schedule. */
export interface ScheduleProductsSuccess {
  code: 0;
  msg: string;
  data: ScheduleProductsData;
}

// /open/v1/stores/list: List the tenant's stores

/** The body of /open/v1/stores/list. */
export interface StoreListBody {
  /** 1–1000000, default 1 */
  page?: number;
  /** 1–2000, default 20 */
  limit?: number;
}

/** One row of /open/v1/stores/list's data. */
export interface StoreListItem {
  code: string;
  name: string;
  address: string;
  contact: string;
  phone: string;
}

/** A success of /open/v1/stores/list. */
export interface StoreListSuccess {
  code: 0;
  msg: string;
  data: StoreListItem[];
  /** Rows before paging. */
  count: number;
}

// /open/v1/tags/list: List the tags of a store with their status and last result

/** The body of /open/v1/tags/list. */
export interface TagListBody {
  /** 1–1000000, default 1 */
  page?: number;
  /** 1–2000, default 20 */
  limit?: number;
  /** 1–32 characters */
  store: string;
  status?: 'online' | 'offline' | 'normal' | 'unknown' | 'lost' | 'interrupted' | 'disconnected';
  bound?: boolean;
}

/** One row of /open/v1/tags/list's data. */
export interface TagListItem {
  hardwareId: string;
  model: string;
  modelName: string;
  status: 'online' | 'offline' | 'normal' | 'unknown' | 'lost' | 'interrupted' | 'disconnected';
  battery: number | null;
  signal: number | null;
  lastSeen: number | null;
  barcode: string | null;
  lastResult: {
    state: 'done' | 'failed';
    code: string | null;
    kind: string;
    requestId: number | null;
    time: number;
  } | null;
}

/** A success of /open/v1/tags/list. */
export interface TagListSuccess {
  code: 0;
  msg: string;
  data: TagListItem[];
  /** Rows before paging. */
  count: number;
}

// /open/v1/tags/unbind: Unbind tags by hardware ID

/** The body of /open/v1/tags/unbind. */
export interface UnbindTagsBody {
  /** 1–32 characters */
  store: string;
  /** 1–1000 items */
  hardwareIds: string[];
}

/** The data of /open/v1/tags/unbind's success. */
export interface UnbindTagsData {
  unbound: number;
}

/** A success of /open/v1/tags/unbind. */
export interface UnbindTagsSuccess {
  code: 0;
  msg: string;
  data: UnbindTagsData;
}

// /open/v1/products/upsert: Add or update up to 1,000 products of a store by barcode (only the fields given change); answers the request id of their tags' new labels

/** The body of /open/v1/products/upsert. */
export interface UpsertProductsBody {
  /** 1–32 characters */
  store: string;
  /** 1–1000 items */
  products: {
    /** 1–64 characters, pattern `^[0-9A-Za-z._-]{1,64}$` */
    barcode: string;
    /** at most 200 characters */
    name?: string;
    price?: string | number;
    originalPrice?: string | number | null;
    /** at most 20 characters */
    unit?: string;
    /** at most 64 characters */
    spec?: string;
    /** at most 64 characters */
    origin?: string;
    /** at most 32 characters */
    grade?: string;
    /** at most 500 characters */
    qrcode?: string;
    custom?: Record<string, string>;
  }[];
}

/** The data of /open/v1/products/upsert's success. */
export interface UpsertProductsData {
  created: number;
  updated: number;
  unchanged: number;
  requestId: number;
  tasks: number;
}

/** A success of /open/v1/products/upsert. */
export interface UpsertProductsSuccess {
  code: 0;
  msg: string;
  data: UpsertProductsData;
}

/** Each integration call: its path, whether it is a list call, and its summary. */
export const OPERATIONS = {
  addPromotion: {
    operationId: 'open.openAddPromotion',
    path: '/open/v1/promotions/add',
    list: false,
    summary:
      "Add a promotion to a store (price, text, products by barcode or by a field value, start and end on the store's clock; scope chain: in every store of the tenant, each on its own clock); labels switch at its times on their own",
  },
  bindTags: {
    operationId: 'open.openBindTags',
    path: '/open/v1/tags/bind',
    list: false,
    summary: 'Bind tags (hardware ID) to products (barcode), up to 100 pairs',
  },
  callbackGet: {
    operationId: 'open.openCallbackGet',
    path: '/open/v1/callback/get',
    list: false,
    summary: "The tenant's callback URL ('' when none)",
  },
  callbackResend: {
    operationId: 'open.openCallbackResend',
    path: '/open/v1/callback/resend',
    list: false,
    summary: "Send the tenant's given-up callback events again, each tag's in order, with a full retry schedule",
  },
  callbackSet: {
    operationId: 'open.openCallbackSet',
    path: '/open/v1/callback/set',
    list: false,
    summary: "Set the tenant's callback URL (checked against private and link-local addresses); '' stops callbacks",
  },
  cancelPromotion: {
    operationId: 'open.openCancelPromotion',
    path: '/open/v1/promotions/cancel',
    list: false,
    summary: 'Cancel promotions of a store that have not ended, by id (all or none); their tags show the regular label',
  },
  deleteProducts: {
    operationId: 'open.openDeleteProducts',
    path: '/open/v1/products/delete',
    list: false,
    summary:
      "Delete products of a store by barcode (their tags are unbound); answers the request id of their tags' new labels",
  },
  editPromotion: {
    operationId: 'open.openEditPromotion',
    path: '/open/v1/promotions/edit',
    list: false,
    summary: 'Change a promotion of a store that has not ended',
  },
  ledTags: {
    operationId: 'open.openLedTags',
    path: '/open/v1/tags/led',
    list: false,
    summary: 'Flash the LED of tags to find them; answers the request id at once',
  },
  promotionList: {
    operationId: 'open.openPromotionList',
    path: '/open/v1/promotions/list',
    list: true,
    summary: "List a store's promotions (started first, then upcoming soonest first, then the rest)",
  },
  refreshTags: {
    operationId: 'open.openRefreshTags',
    path: '/open/v1/tags/refresh',
    list: false,
    summary: 'Refresh tags: render and deliver their labels; answers the request id at once',
  },
  requestProgress: {
    operationId: 'open.openRequestProgress',
    path: '/open/v1/requests/get',
    list: false,
    summary: 'Progress and per-tag results (up to 2,000 tags) of a request (product upsert or delete, refresh, LED)',
  },
  scheduleCancel: {
    operationId: 'open.openScheduleCancel',
    path: '/open/v1/products/schedule/cancel',
    list: false,
    summary: 'Cancel pending scheduled changes of a store by id (all or none)',
  },
  scheduleEdit: {
    operationId: 'open.openScheduleEdit',
    path: '/open/v1/products/schedule/edit',
    list: false,
    summary: "Change the time (store's clock) or the fields of a pending scheduled change of a store by id",
  },
  scheduleList: {
    operationId: 'open.openScheduleList',
    path: '/open/v1/products/schedule/list',
    list: true,
    summary: "List a store's scheduled changes, pending first (soonest first)",
  },
  scheduleProducts: {
    operationId: 'open.openScheduleProducts',
    path: '/open/v1/products/schedule',
    list: false,
    summary:
      "Schedule changes of up to 1,000 products of a store by barcode at a time on the store's clock (scope chain: in every store with the barcode, each on its own clock)",
  },
  storeList: {
    operationId: 'open.openStoreList',
    path: '/open/v1/stores/list',
    list: true,
    summary: "List the tenant's stores",
  },
  tagList: {
    operationId: 'open.openTagList',
    path: '/open/v1/tags/list',
    list: true,
    summary: 'List the tags of a store with their status and last result',
  },
  unbindTags: {
    operationId: 'open.openUnbindTags',
    path: '/open/v1/tags/unbind',
    list: false,
    summary: 'Unbind tags by hardware ID',
  },
  upsertProducts: {
    operationId: 'open.openUpsertProducts',
    path: '/open/v1/products/upsert',
    list: false,
    summary:
      "Add or update up to 1,000 products of a store by barcode (only the fields given change); answers the request id of their tags' new labels",
  },
} as const;

/** The types of each call: what it takes, what a success answers, what a refusal answers. */
export interface Operations {
  addPromotion: { body: AddPromotionBody; success: AddPromotionSuccess; refusal: Refusal };
  bindTags: { body: BindTagsBody; success: BindTagsSuccess; refusal: Refusal };
  callbackGet: { body: CallbackGetBody; success: CallbackGetSuccess; refusal: Refusal };
  callbackResend: { body: CallbackResendBody; success: CallbackResendSuccess; refusal: Refusal };
  callbackSet: { body: CallbackSetBody; success: CallbackSetSuccess; refusal: Refusal };
  cancelPromotion: { body: CancelPromotionBody; success: CancelPromotionSuccess; refusal: Refusal };
  deleteProducts: { body: DeleteProductsBody; success: DeleteProductsSuccess; refusal: Refusal };
  editPromotion: { body: EditPromotionBody; success: EditPromotionSuccess; refusal: Refusal };
  ledTags: { body: LedTagsBody; success: LedTagsSuccess; refusal: Refusal };
  promotionList: { body: PromotionListBody; success: PromotionListSuccess; refusal: Refusal };
  refreshTags: { body: RefreshTagsBody; success: RefreshTagsSuccess; refusal: Refusal };
  requestProgress: { body: RequestProgressBody; success: RequestProgressSuccess; refusal: Refusal };
  scheduleCancel: { body: ScheduleCancelBody; success: ScheduleCancelSuccess; refusal: Refusal };
  scheduleEdit: { body: ScheduleEditBody; success: ScheduleEditSuccess; refusal: Refusal };
  scheduleList: { body: ScheduleListBody; success: ScheduleListSuccess; refusal: Refusal };
  scheduleProducts: { body: ScheduleProductsBody; success: ScheduleProductsSuccess; refusal: Refusal };
  storeList: { body: StoreListBody; success: StoreListSuccess; refusal: Refusal };
  tagList: { body: TagListBody; success: TagListSuccess; refusal: Refusal };
  unbindTags: { body: UnbindTagsBody; success: UnbindTagsSuccess; refusal: Refusal };
  upsertProducts: { body: UpsertProductsBody; success: UpsertProductsSuccess; refusal: Refusal };
}
