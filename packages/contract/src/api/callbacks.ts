import { z } from 'zod';
import { Paging } from '../common';
import type { Messages } from '../errors';

/*
 * Callbacks (issue 15, docs/INTEGRATION.md): the tenant's callback URL and the events sent to it
 * from the durable outbox. The console's tenant page shows both and sends a test event.
 */

export const CALLBACK_URL_MAX = 500;

/** After how many minutes of a wrong price on a tag the `price.wrong` event goes out, unless set (docs/PROOF.md). */
export const PRICE_WRONG_MINUTES_DEFAULT = 15;
/** At most a week. */
export const PRICE_WRONG_MINUTES_MAX = 10_080;

export const CallbackSettings = z.object({
  /** '' when the tenant gets no callbacks. */
  url: z.string(),
  /** Minutes a tag may show a price other than its product's before the `price.wrong` event. */
  priceWrongMinutes: z.number().int(),
});
export type CallbackSettings = z.infer<typeof CallbackSettings>;

export const SetCallbackBody = z.object({
  /** http(s) URL of the tenant's receiver; '' stops callbacks (and drops the events still waiting). */
  url: z.string().trim().max(CALLBACK_URL_MAX, 'tooLong'),
  /** Minutes before `price.wrong` (1 to 10080); left out: unchanged. */
  priceWrongMinutes: z.coerce.number().int().min(1).max(PRICE_WRONG_MINUTES_MAX).optional(),
});

export const CALLBACK_TYPES = ['tag.result', 'request.done', 'label.problem', 'price.wrong', 'test'] as const;
export const CallbackType = z.enum(CALLBACK_TYPES);
export type CallbackType = z.infer<typeof CallbackType>;

/** pending: waiting for its (next) attempt; sent: answered 2xx; failed: given up; dropped: the URL was cleared. */
export const CALLBACK_STATES = ['pending', 'sent', 'failed', 'dropped'] as const;
export const CallbackState = z.enum(CALLBACK_STATES);
export type CallbackState = z.infer<typeof CallbackState>;

export const CallbackDelivery = z.object({
  id: z.number().int(),
  eventId: z.string(),
  type: CallbackType,
  storeId: z.number().int().nullable(),
  /** What the event is about: 'tag:12', 'request:5', 'test'. */
  subject: z.string(),
  /** The tag's hardware ID (tag results), else null. */
  hardwareId: z.string().nullable(),
  /** The request (tag results of a request, request completion), else null. */
  requestId: z.number().int().nullable(),
  state: CallbackState,
  attempts: z.number().int(),
  /** When the next attempt is due (pending rows), Unix ms. */
  nextAt: z.number().int(),
  createdAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
  /** HTTP status of the last answer; null when none came (timeout, refused address, no connection). */
  lastStatus: z.number().int().nullable(),
  /** Why the last attempt failed ('timeout', 'HTTP 500', 'refused address', …); '' when it did not. */
  lastError: z.string(),
  /** The first characters of the last answer's body. */
  excerpt: z.string(),
});
export type CallbackDelivery = z.infer<typeof CallbackDelivery>;

export const TestCallbackData = z.object({ eventId: z.string() });

/** The recent deliveries, newest first; with `state`, only those (e.g. 'failed': the given-up ones). */
export const CallbackLogBody = Paging.extend({ state: CallbackState.optional() });

/** How many given-up events were put back in line (sent again from their first attempt). */
export const ResendCallbacksData = z.object({ resent: z.number().int() });

export const CALLBACK_TYPE_LABELS: Record<CallbackType, Messages> = {
  'tag.result': { 'zh-CN': '价签结果', en: 'Tag result' },
  'request.done': { 'zh-CN': '请求完成', en: 'Request done' },
  'label.problem': { 'zh-CN': '标签绘制问题', en: 'Label problem' },
  'price.wrong': { 'zh-CN': '价签价格错误', en: 'Wrong price on a tag' },
  test: { 'zh-CN': '测试事件', en: 'Test event' },
};

export const CALLBACK_STATE_LABELS: Record<CallbackState, Messages> = {
  pending: { 'zh-CN': '等待发送', en: 'Pending' },
  sent: { 'zh-CN': '已送达', en: 'Delivered' },
  failed: { 'zh-CN': '已放弃', en: 'Given up' },
  dropped: { 'zh-CN': '已取消', en: 'Dropped' },
};
