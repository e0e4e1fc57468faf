import type { CallName, FirmwareFileKind, ListCallName } from '@esl/contract';

/**
 * Every cache key of the console, in one place, so that what a change invalidates is read here
 * and not guessed from strings spread over the pages. A key starts with its area; the per-store
 * areas (base stations, tags, products) go on with the store's id, so a change in one store
 * leaves another's answers alone. Invalidating `area(...)` drops everything below it.
 */

/** The per-store areas: their rows belong to the current store. */
export type StoreArea = 'stations' | 'tags' | 'products';
export type Area = StoreArea | 'stores' | 'templates' | 'users' | 'tenants' | 'firmware' | 'logs';

/** The area each list call's rows are cached under; a new list call must name one (the type says so). */
export const LIST_AREAS = {
  storeList: 'stores',
  stationRuntime: 'stations',
  tagList: 'tags',
  productList: 'products',
  scheduleList: 'products',
  promotionList: 'products',
  proofList: 'tags',
  pageScheduleList: 'tags',
  problemsList: 'tags',
  problemsChain: 'tags',
  templateList: 'templates',
  templateRules: 'templates',
  fontList: 'templates',
  userList: 'users',
  tenantList: 'tenants',
  firmwareList: 'firmware',
  firmwareChoices: 'firmware',
  upgradeList: 'stations',
  opLog: 'logs',
  sysLog: 'logs',
  tagTaskLog: 'logs',
  pushLog: 'logs',
  callbackLog: 'logs',
} as const satisfies Record<ListCallName, Area>;

export type ListArea<N extends ListCallName> = (typeof LIST_AREAS)[N];

/** Whether an area's rows belong to a store. */
export function isStoreArea(area: Area): area is StoreArea {
  return area === 'stations' || area === 'tags' || area === 'products';
}

export const queryKeys = {
  /** Everything cached of an area (of one store, for the per-store areas). */
  area: (area: Area, storeId?: number) => (storeId === undefined ? [area] : [area, storeId]),
  /** Every page of every list of an area. */
  lists: (area: Area, storeId?: number) => [...queryKeys.area(area, storeId), 'list'],
  /** One page of a list screen: the call and its body (filter, paging, sort). */
  list: <N extends ListCallName>(call: N, storeId: number | undefined, body: unknown) => [
    ...queryKeys.lists(LIST_AREAS[call], storeId),
    call,
    body,
  ],

  /** Every store the user may see (filters and pickers of the users and log screens). */
  allStores: () => ['stores', 'all'],
  /** The number of stores (the dashboard's figure). */
  storeCount: () => ['stores', 'count'],
  storeParams: (id: number) => ['stores', 'params', id],
  /** The navbar's store switcher; refreshed by the user's info, not by the stores screen. */
  storePicker: () => ['navbar', 'stores'],
  userCount: () => ['users', 'count'],
  /** The price-accuracy counts of a store: under its tag lists, so what refreshes them refreshes these. */
  proofSummary: (storeId: number) => [...queryKeys.lists('tags', storeId), 'proofSummary'],
  problemsSummary: (storeId: number) => [...queryKeys.lists('tags', storeId), 'problemsSummary'],
  /** The page schedules of a store (docs/PAGES.md), under its tag lists. */
  pageSchedules: (storeId: number) => [...queryKeys.lists('tags', storeId), 'pageSchedules'],
  /** The dashboard's recent operations. */
  recentOperations: () => ['logs', 'recent'],
  /** A /sumary/* statistic of the dashboard, per current store. */
  summary: (call: CallName, storeId: number | null, body: unknown) => ['summary', call, storeId, body],
  /** The signed-in user's own info (account settings). */
  self: () => ['session', 'info'],
  tenantInfo: () => ['tenant', 'baseInfo'],
  fieldMap: () => ['products', 'fieldMap'],
  /** Products offered by the template editor's preview. */
  productPick: (search: string) => ['products', 'pick', search],
  templateData: (id: number | null) => ['templates', 'data', id],
  /** Tag models the tenant's stations taught (the template dialog offers their sizes). */
  learnedModels: () => ['templates', 'learnedModels'],
  dataKeyMap: () => ['templates', 'keymap'],
  /** The template rules dialog: every rule, and the templates offered for one model. */
  templateRules: () => ['templates', 'rules'],
  templatesForRule: (model: string | undefined) => ['templates', 'forRule', model],
  /** Templates offered by the page schedule dialog. */
  templatesForPageSchedule: () => ['templates', 'forPageSchedule'],
  /** The platform's firmware files (the operator's screen). */
  firmwareFiles: () => ['firmware', 'files'],
  /** The firmware files a tenant may upgrade one kind of device with. */
  firmwareChoices: (kind: FirmwareFileKind) => ['firmware', 'choices', kind],
  /** A store's device upgrades, and the stations offered for one. */
  firmwareRollouts: (storeId: number) => ['firmware', storeId, 'rollouts'],
  rolloutStations: (storeId: number) => ['firmware', storeId, 'stations'],
  /** The label fonts, loaded once for the editor's canvas. */
  labelFonts: () => ['label-fonts'],
} as const;
