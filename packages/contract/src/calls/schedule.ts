import {
  AddScheduleBody,
  AddScheduleData,
  CancelScheduleBody,
  CancelScheduleData,
  EditScheduleBody,
  ScheduledChange,
  ScheduleListBody,
} from '../api/schedule';
import type { Messages } from '../errors';
import { call, change, list } from './define';

/** Scheduled product changes of the current store (docs/SCHEDULE.md); with none set: STORE_NOT_SET. */
export const SCHEDULE_CALLS = {
  scheduleList: call(
    '/mgr/schedule/list',
    'product.read',
    ScheduleListBody,
    ScheduledChange,
    'List the scheduled product changes of the current store (pending first, soonest first)',
    list,
  ),
  addSchedule: call(
    '/mgr/schedule/add',
    'product.write',
    AddScheduleBody,
    AddScheduleData,
    'Schedule a change of a product at a wall-clock time of the store (chain: of every visible store with the ' +
      'same barcode, each in its own time zone); the labels are delivered ahead and shown at that time',
    change,
  ),
  editSchedule: call(
    '/mgr/schedule/edit',
    'product.write',
    EditScheduleBody,
    ScheduledChange,
    'Change the time or the fields of a pending scheduled change',
    change,
  ),
  cancelSchedule: call(
    '/mgr/schedule/cancel',
    'product.write',
    CancelScheduleBody,
    CancelScheduleData,
    'Cancel pending scheduled changes (all or nothing); their labels are taken back from the tags',
    change,
  ),
} as const;

export const SCHEDULE_CALL_NAMES = {
  scheduleList: { 'zh-CN': '查询定时变更', en: 'List scheduled changes' },
  addSchedule: { 'zh-CN': '添加定时变更', en: 'Schedule a change' },
  editSchedule: { 'zh-CN': '修改定时变更', en: 'Edit a scheduled change' },
  cancelSchedule: { 'zh-CN': '取消定时变更', en: 'Cancel scheduled changes' },
} as const satisfies Record<keyof typeof SCHEDULE_CALLS, Messages>;
