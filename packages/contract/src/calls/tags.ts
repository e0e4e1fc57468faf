import { z } from 'zod';
import {
  AddTagsBody,
  AddTagsData,
  BindTagBody,
  ImportTagPositionsBody,
  ImportTagPositionsData,
  LearnedTagModel,
  LedTagsBody,
  RefreshAllTagsBody,
  RefreshTagsBody,
  RequestGetBody,
  RequestProgress,
  RollCallTagsBody,
  SetTagPositionBody,
  ShowPageBody,
  Tag,
  TagDelivery,
  TagDeliveryBody,
  TagListBody,
  TagRequestData,
  TagScreenBody,
  TagWall,
  TagWallBody,
  UnbindTagsBody,
  UnbindTagsData,
} from '../api/tags';
import { DeleteBody, DeleteData, Empty, Nothing } from '../common';
import type { Messages } from '../errors';
import { call, change, list } from './define';

/** Tags of the current store (with none set: STORE_NOT_SET, 1008). */
export const TAG_CALLS = {
  tagList: call('/mgr/tag/list', 'tag.read', TagListBody, Tag, 'List tags with filters', list),
  learnedModelList: call(
    '/mgr/tag/learnedmodels',
    'tag.read',
    Empty,
    z.object({ rows: z.array(LearnedTagModel) }),
    'Tag models the tenant’s stations taught (not in the catalogue), newest first',
  ),
  addTag: call('/mgr/tag/add', 'tag.write', AddTagsBody, AddTagsData, 'Add one or many tags of one model', change),
  delTag: call('/mgr/tag/delete', 'tag.write', DeleteBody, DeleteData, 'Delete tags', change),
  bindTag: call(
    '/mgr/tag/bindesl',
    'tag.bind',
    BindTagBody,
    Tag,
    'Bind a tag (hardware ID) to a product (barcode)',
    change,
  ),
  unbindTag: call('/mgr/tag/unbindesl', 'tag.bind', UnbindTagsBody, UnbindTagsData, 'Unbind tags', change),
  refreshTag: call(
    '/mgr/tag/flashesl',
    'tag.operate',
    RefreshTagsBody,
    TagRequestData,
    'Refresh tags: render and deliver their labels (force: even when a tag already shows it)',
    change,
  ),
  refreshAllTags: call(
    '/mgr/tag/flashallesl',
    'tag.operate',
    RefreshAllTagsBody,
    TagRequestData,
    'Refresh every tag of the store',
    change,
  ),
  rollCallTag: call(
    '/mgr/tag/echoesl',
    'tag.operate',
    RollCallTagsBody,
    TagRequestData,
    'Roll-call tags: each answers at its next check-in (led: flash while answering)',
    change,
  ),
  rollCallAllTags: call(
    '/mgr/tag/echoallesl',
    'tag.operate',
    Empty,
    TagRequestData,
    'Roll-call every tag of the store (each station answers from the tags it hears)',
    change,
  ),
  ledTag: call('/mgr/tag/ledesl', 'tag.operate', LedTagsBody, TagRequestData, 'Flash the LED of tags', change),
  showPage: call(
    '/mgr/tag/showpage',
    'tag.operate',
    ShowPageBody,
    TagRequestData,
    'Show another page of tags’ labels (docs/PAGES.md) with no image transfer; back to page 1 after staySeconds ' +
      '(0: it stays). A tag at a station that cannot hold pages (an OpenEPaperLink AP) fails as unsupported',
    change,
  ),
  requestProgress: call(
    '/mgr/request/get',
    'tag.read',
    RequestGetBody,
    RequestProgress,
    'Progress of a tag operation (done, failed, total) by its request id',
  ),
  tagScreen: call(
    '/mgr/tag/screen',
    'tag.read',
    TagScreenBody,
    Nothing,
    'A tag’s screen as a palette PNG in the panel’s orientation (beyond SPEC): `shown`, the label it last ' +
      'reported showing, or `desired`, the one it is to show; decoded from the bytes the tag was sent, not drawn ' +
      'again. NOT_FOUND (1002) when there is no such tag in the current store, or no stored image (refusals ' +
      'answer the envelope)',
    { file: { type: 'image/png', filename: 'screen.png' } },
  ),
  tagDelivery: call(
    '/mgr/tag/delivery',
    'tag.read',
    TagDeliveryBody,
    TagDelivery,
    'How a tag’s deliveries stand (beyond SPEC): each task slot’s state, attempts, station and expected time. ' +
      'NOT_FOUND (1002) when there is no such tag in the current store',
  ),
  setTagPosition: call(
    '/mgr/tag/setposition',
    'tag.bind',
    SetTagPositionBody,
    Tag,
    'Set where a tag of the current store is (aisle, bay, shelf, position; all empty: off the wall), by id or hardware ID',
    change,
  ),
  importTagPositions: call(
    '/mgr/tag/importpositions',
    'tag.bind',
    ImportTagPositionsBody,
    ImportTagPositionsData,
    'Set where many tags of the current store are, by hardware ID (up to 2,000 rows); all or nothing: an ID ' +
      'the store does not have refuses the call (NOT_FOUND, 1002, naming it)',
    change,
  ),
  tagWall: call(
    '/mgr/tag/wall',
    'tag.read',
    TagWallBody,
    TagWall,
    'The store wall: the current store’s placed tags by aisle, bay, shelf and position, with their screen ' +
      'versions (draw them with /mgr/tag/screen), pending state and problem kinds (up to 2,000; filter by aisle)',
  ),
} as const;

/** What the console and the operation log call each operation, in both languages. */
export const TAG_CALL_NAMES = {
  tagList: { 'zh-CN': '查询价签', en: 'List tags' },
  addTag: { 'zh-CN': '添加价签', en: 'Add tags' },
  delTag: { 'zh-CN': '删除价签', en: 'Delete tags' },
  bindTag: { 'zh-CN': '绑定价签', en: 'Bind a tag' },
  unbindTag: { 'zh-CN': '解绑价签', en: 'Unbind tags' },
  refreshTag: { 'zh-CN': '刷新价签', en: 'Refresh tags' },
  refreshAllTags: { 'zh-CN': '刷新全部价签', en: 'Refresh all tags' },
  rollCallTag: { 'zh-CN': '点名价签', en: 'Roll-call tags' },
  rollCallAllTags: { 'zh-CN': '点名全部价签', en: 'Roll-call all tags' },
  ledTag: { 'zh-CN': '价签闪灯', en: 'Flash tag LEDs' },
  showPage: { 'zh-CN': '切换价签页面', en: 'Show a page of tags’ labels' },
  requestProgress: { 'zh-CN': '查询操作进度', en: 'Operation progress' },
  tagScreen: { 'zh-CN': '查看价签画面', en: 'View a tag screen' },
  tagDelivery: { 'zh-CN': '查看价签下发状态', en: 'View a tag’s deliveries' },
  learnedModelList: { 'zh-CN': '查询学到的价签型号', en: 'List learned tag models' },
  setTagPosition: { 'zh-CN': '设置价签位置', en: 'Set a tag’s position' },
  importTagPositions: { 'zh-CN': '导入价签位置', en: 'Import tag positions' },
  tagWall: { 'zh-CN': '查看门店货架墙', en: 'View the store wall' },
} as const satisfies Record<keyof typeof TAG_CALLS, Messages>;
