import { z } from 'zod';
import { Id, Line, Paging } from '../common';
import type { Language, Messages } from '../errors';
import { SCHEDULE_TAG_LOG_KIND, type ScheduleLogDetail, scheduleLogMessage } from './schedule';

const Range = { from: z.number().int().optional(), to: z.number().int().optional() };

export const OpLogListBody = Paging.extend({
  username: Line(64).optional(),
  call: Line(100).optional(),
  storeId: Id.optional(),
  ...Range,
});
export const OpLog = z.object({
  id: z.number().int(),
  time: z.number().int(),
  username: z.string(),
  storeId: z.number().int().nullable(),
  storeName: z.string(),
  /** The call's path, as logged (the filter `call` matches it). */
  call: z.string(),
  /** The call's name in the reader's language (its path when the call no longer exists). */
  operation: z.string(),
  /** What the call acted on, in the reader's language with the object's name. */
  target: z.string(),
  code: z.number().int(),
  msg: z.string(),
  ip: z.string(),
});
export type OpLog = z.infer<typeof OpLog>;

export const SysLogLevel = z.enum(['info', 'warn', 'error']);
export const SysLogListBody = Paging.extend({
  level: SysLogLevel.optional(),
  event: Line(64).optional(),
  storeId: Id.optional(),
  ...Range,
});
export const SysLog = z.object({
  id: z.number().int(),
  time: z.number().int(),
  level: SysLogLevel,
  /** The event's key as logged (the filter `event` matches it). */
  event: z.string(),
  /** The event as a word in the reader's language. */
  eventName: z.string(),
  /** In the reader's language. */
  message: z.string(),
  /** The store the event belongs to (a station's events); null and '' for tenant-wide events. */
  storeId: z.number().int().nullable(),
  storeName: z.string(),
});
export type SysLog = z.infer<typeof SysLog>;

/*
 * The delivery layer's logs (DELIVERY.md §5.1): the tag log (one row per finished task revision
 * of a tag) and the data-push log (one row per console edit, import, API batch or schedule).
 * Both list the current store's rows, newest first; the server words each row for the reader.
 */

/** How a task revision ended. */
export const TAG_LOG_RESULTS = ['ok', 'skipped', 'failed', 'cancelled', 'replaced'] as const;
export const TagLogResult = z.enum(TAG_LOG_RESULTS);
export type TagLogResult = z.infer<typeof TagLogResult>;

export const TAG_LOG_RESULT_LABELS: Record<TagLogResult, Messages> = {
  ok: { 'zh-CN': '成功', en: 'Done' },
  skipped: { 'zh-CN': '无需发送', en: 'Skipped' },
  failed: { 'zh-CN': '失败', en: 'Failed' },
  cancelled: { 'zh-CN': '已取消', en: 'Cancelled' },
  replaced: { 'zh-CN': '已取代', en: 'Replaced' },
};

/** What a tag task did; the engine's job kinds, and the operations' names for them. */
export const TAG_LOG_KIND_LABELS: Record<string, Messages> = {
  image: { 'zh-CN': '刷新', en: 'Refresh' },
  refresh: { 'zh-CN': '刷新', en: 'Refresh' },
  led: { 'zh-CN': '闪灯', en: 'LED flash' },
  ping: { 'zh-CN': '点名', en: 'Roll call' },
  rollcall: { 'zh-CN': '点名', en: 'Roll call' },
  tagcfg: { 'zh-CN': '价签设置', en: 'Tag settings' },
  tagfw: { 'zh-CN': '价签升级', en: 'Tag firmware update' },
  render: { 'zh-CN': '合成', en: 'Render' },
  [SCHEDULE_TAG_LOG_KIND]: { 'zh-CN': '定时变更生效', en: 'Scheduled change took effect' },
};

/**
 * A label sent with characters no font of its elements draws (shown as boxes): the push log and
 * the `label.problem` callback name the product, field and characters.
 */
const MISSING_GLYPH: Messages = {
  'zh-CN': '部分文字无字体可绘制，价签上显示为空框（商品与字段见数据推送日志）',
  en: 'Some characters have no font and show as boxes (product and field in the data-push log)',
};

/**
 * A label went out with an element whose font family the tenant does not have (another tenant's
 * brand font, or a deleted one): drawn in the base font (docs/LABELS.md "Fonts a retailer brings").
 */
const UNKNOWN_FONT: Messages = {
  'zh-CN': '模板使用的字体不可用，已用默认字体绘制（字体见数据推送日志）',
  en: "The template's font is not available; drawn in the default font (font named in the data-push log)",
};

/** The kind in the reader's language (the kind itself when it has no name). */
export function tagLogKindName(kind: string, lang: Language): string {
  return TAG_LOG_KIND_LABELS[kind]?.[lang] ?? kind;
}

/**
 * Why a refresh failed, in SPEC.md §8's words (DELIVERY.md §4.2's table): a timeout is "refresh
 * timeout", a render that could not be made "synthesis failed", a panel error "screen refresh
 * failed", every other failure "refresh failed" with the reason.
 */
export const TAG_LOG_CODE_MESSAGES: Record<string, Messages> = {
  timeout: { 'zh-CN': '刷新超时', en: 'Refresh timeout' },
  renderError: { 'zh-CN': '合成失败', en: 'Synthesis failed' },
  displayError: { 'zh-CN': '屏幕刷新失败', en: 'Screen refresh failed' },
  nack: { 'zh-CN': '刷新失败：传输失败', en: 'Refresh failed: transfer failed' },
  lowBattery: { 'zh-CN': '刷新失败：电量低', en: 'Refresh failed: battery low' },
  unsupported: { 'zh-CN': '刷新失败：价签不支持', en: 'Refresh failed: the tag cannot do this' },
  unknownTag: { 'zh-CN': '刷新失败：基站未找到价签', en: 'Refresh failed: no station hears the tag' },
  badBlob: { 'zh-CN': '刷新失败：图像数据校验错误', en: 'Refresh failed: the image data did not check out' },
};
const REFRESH_FAILED: Messages = { 'zh-CN': '刷新失败', en: 'Refresh failed' };

/** The same reasons for a task other than a refresh: "<what> failed: <why>". */
const OTHER_CODE_REASONS: Record<string, Messages> = {
  timeout: { 'zh-CN': '超时', en: 'timed out' },
  nack: { 'zh-CN': '传输失败', en: 'transfer failed' },
  displayError: { 'zh-CN': '屏幕错误', en: 'display error' },
  lowBattery: { 'zh-CN': '电量低', en: 'battery low' },
  unsupported: { 'zh-CN': '价签不支持', en: 'the tag cannot do this' },
  unknownTag: { 'zh-CN': '基站未找到价签', en: 'no station hears the tag' },
  badBlob: { 'zh-CN': '数据校验错误', en: 'the data did not check out' },
  rolledBack: { 'zh-CN': '已回退到旧版本', en: 'rolled back to the old version' },
};

const isRefresh = (kind: string) => kind === 'image' || kind === 'refresh';

/**
 * The message a tag-log row shows: the failure in SPEC.md §8's words (refresh failed, refresh
 * timeout, synthesis failed, screen refresh failed), the reason for a skip or cancel, '' for done;
 * a scheduled change that took effect (kind `schedule`): which change, what it set and its time.
 */
export function tagLogMessage(
  row: { kind: string; result: TagLogResult; code: string; detail?: string | null },
  lang: Language,
): string {
  if (row.kind === SCHEDULE_TAG_LOG_KIND && row.detail) {
    try {
      return scheduleLogMessage(JSON.parse(row.detail) as ScheduleLogDetail, lang);
    } catch {
      // Not a detail this version wrote: said as any other row.
    }
  }
  if (row.code === 'missingGlyph') return MISSING_GLYPH[lang];
  if (row.code === 'unknownFont') return UNKNOWN_FONT[lang];
  if (row.result === 'ok') return '';
  if (row.result === 'skipped') {
    return lang === 'en' ? 'The tag already shows this label' : '价签已显示此内容';
  }
  if (row.result === 'cancelled') return lang === 'en' ? 'Stopped before it finished' : '完成前已停止';
  if (row.result === 'replaced') return lang === 'en' ? 'A newer update took its place' : '已由更新的内容取代';
  if (isRefresh(row.kind) || row.code === 'renderError') {
    const known = TAG_LOG_CODE_MESSAGES[row.code]?.[lang];
    if (known) return known;
    return row.code ? `${REFRESH_FAILED[lang]} (${row.code})` : REFRESH_FAILED[lang];
  }
  const what = tagLogKindName(row.kind, lang);
  const failed = lang === 'en' ? `${what} failed` : `${what}失败`;
  const reason = OTHER_CODE_REASONS[row.code]?.[lang] ?? row.code;
  if (!reason) return failed;
  return lang === 'en' ? `${failed}: ${reason}` : `${failed}：${reason}`;
}

export const TagLogListBody = Paging.extend({
  /** A tag's hardware ID as scanned (matched whole), or a part of one (contained, any case). */
  hardwareId: Line(64)
    .transform((s) => s.toUpperCase())
    .optional(),
  result: TagLogResult.optional(),
  /**
   * Leave out the rows of refreshes skipped because the tag already showed its label (the
   * console's default view: they are most rows and no work was done). `result` wins over it.
   */
  hideSkipped: z.boolean().optional(),
  /** The serial of the station that carried it. */
  stationSn: Line(64).optional(),
  /** The operation (request id) the rows belong to. */
  requestId: Id.optional(),
  /** Finished within [from, to], Unix ms. */
  ...Range,
});

export const TagLog = z.object({
  id: z.number().int(),
  tagId: z.number().int(),
  hardwareId: z.string(),
  requestId: z.number().int().nullable(),
  /** The task's kind as the engine names it ('image', 'led', …) and in the reader's language. */
  kind: z.string(),
  kindName: z.string(),
  rev: z.number().int(),
  result: TagLogResult,
  /** In the reader's language. */
  resultName: z.string(),
  /** The engine's failure code ('timeout', 'renderError', …); '' for none. */
  code: z.string(),
  /** Why, in the reader's language (SPEC.md §8's messages for refreshes); '' for done. */
  message: z.string(),
  hash: z.string().nullable(),
  stationSn: z.string(),
  attempts: z.number().int(),
  queuedAt: z.number().int().nullable(),
  sentAt: z.number().int().nullable(),
  finishedAt: z.number().int(),
  /** From queued to finished, ms (null when the queue time is unknown). */
  latencyMs: z.number().int().nullable(),
  airMs: z.number().int().nullable(),
  rssi: z.number().int().nullable(),
});
export type TagLog = z.infer<typeof TagLog>;

/** Where a data push came from. */
export const PUSH_SOURCES = ['console', 'import', 'api', 'schedule', 'callback'] as const;
export const PushSource = z.enum(PUSH_SOURCES);
export type PushSource = z.infer<typeof PushSource>;

export const PUSH_SOURCE_LABELS: Record<PushSource, Messages> = {
  console: { 'zh-CN': '控制台', en: 'Console' },
  import: { 'zh-CN': '导入', en: 'Import' },
  api: { 'zh-CN': '接口', en: 'API' },
  schedule: { 'zh-CN': '定时任务', en: 'Schedule' },
  callback: { 'zh-CN': '回调通知', en: 'Callbacks' },
};

export const PushLogListBody = Paging.extend({
  source: PushSource.optional(),
  /**
   * Leave out the callback deliveries (the console's default view: they are not data pushes, and
   * a failing receiver would bury the price changes). `source` wins over it.
   */
  hideCallbacks: z.boolean().optional(),
  /** Started within [from, to], Unix ms. */
  ...Range,
});

export const PushLog = z.object({
  id: z.number().int(),
  source: PushSource,
  /** In the reader's language. */
  sourceName: z.string(),
  /** Who pushed ('' for the API or a schedule, or a deleted user). */
  username: z.string(),
  products: z.number().int(),
  tagsAffected: z.number().int(),
  rendered: z.number().int(),
  failed: z.number().int(),
  /** The first exceptions, as recorded. */
  exceptions: z.array(z.string()),
  /** Every exception, kept or not. */
  exceptionCount: z.number().int(),
  startedAt: z.number().int(),
  /** Null while the push is still running. */
  finishedAt: z.number().int().nullable(),
});
export type PushLog = z.infer<typeof PushLog>;
