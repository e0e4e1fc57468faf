import {
  CallbackDelivery,
  CallbackLogBody,
  CallbackSettings,
  ResendCallbacksData,
  SetCallbackBody,
  TestCallbackData,
} from '../api/callbacks';
import { Empty } from '../common';
import type { Messages } from '../errors';
import { call, change } from './define';

/** A tenant's callbacks (webhooks): the URL, the recent deliveries, a test event, given-up events sent again. */
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
  callbackLog: call(
    '/user/callbacklog',
    'tenant.config',
    CallbackLogBody,
    CallbackDelivery,
    'Recent callback deliveries',
    { list: true },
  ),
  testCallback: call('/user/testcallback', 'tenant.config', Empty, TestCallbackData, 'Send a test callback', change),
  resendCallbacks: call(
    '/user/resendcallbacks',
    'tenant.config',
    Empty,
    ResendCallbacksData,
    'Send the given-up callback events again (each tag in order)',
    change,
  ),
} as const;

export const CALLBACK_CALL_NAMES = {
  callbackInfo: { 'zh-CN': '读取回调地址', en: 'Read the callback URL' },
  setCallback: { 'zh-CN': '设置回调地址', en: 'Set the callback URL' },
  callbackLog: { 'zh-CN': '查看回调记录', en: 'List callback deliveries' },
  testCallback: { 'zh-CN': '发送测试回调', en: 'Send a test callback' },
  resendCallbacks: { 'zh-CN': '重发已放弃的回调', en: 'Resend given-up callbacks' },
} as const satisfies Record<keyof typeof CALLBACK_CALLS, Messages>;
