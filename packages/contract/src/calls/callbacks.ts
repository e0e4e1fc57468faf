import { CallbackDelivery, CallbackSettings, SetCallbackBody, TestCallbackData } from '../api/callbacks';
import { Empty, Paging } from '../common';
import type { Messages } from '../errors';
import { call, change } from './define';

/** A tenant's callbacks (webhooks): the URL, the recent deliveries, a test event. */
export const CALLBACK_CALLS = {
  callbackInfo: call('/user/getcallback', 'tenant.config', Empty, CallbackSettings, 'Callback URL'),
  setCallback: call(
    '/user/setcallback',
    'tenant.config',
    SetCallbackBody,
    CallbackSettings,
    'Set the callback URL',
    change,
  ),
  callbackLog: call('/user/callbacklog', 'tenant.config', Paging, CallbackDelivery, 'Recent callback deliveries', {
    list: true,
  }),
  testCallback: call('/user/testcallback', 'tenant.config', Empty, TestCallbackData, 'Send a test callback', change),
} as const;

export const CALLBACK_CALL_NAMES = {
  callbackInfo: { 'zh-CN': '读取回调地址', en: 'Read the callback URL' },
  setCallback: { 'zh-CN': '设置回调地址', en: 'Set the callback URL' },
  callbackLog: { 'zh-CN': '查看回调记录', en: 'List callback deliveries' },
  testCallback: { 'zh-CN': '发送测试回调', en: 'Send a test callback' },
} as const satisfies Record<keyof typeof CALLBACK_CALLS, Messages>;
