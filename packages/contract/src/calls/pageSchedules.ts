import {
  AddPageScheduleBody,
  DeletePageScheduleBody,
  DeletePageScheduleData,
  EditPageScheduleBody,
  PageSchedule,
  PageScheduleListBody,
} from '../api/pageSchedules';
import type { Messages } from '../errors';
import { call, change, list } from './define';

/** Page schedules of the current store (docs/PAGES.md "Page schedules"); with none set: STORE_NOT_SET. */
export const PAGE_SCHEDULE_CALLS = {
  pageScheduleList: call(
    '/mgr/pagesched/list',
    'tag.read',
    PageScheduleListBody,
    PageSchedule,
    'List the page schedules of the current store, each with its window under way or next',
    list,
  ),
  addPageSchedule: call(
    '/mgr/pagesched/add',
    'tag.write',
    AddPageScheduleBody,
    PageSchedule,
    "Add a page schedule: on the weekdays chosen, from `from` to `to` on the store's clock, the store's tags " +
      'drawn with the template show page `page`, then page 1 again; each switch is sent ahead with its time',
    change,
  ),
  editPageSchedule: call(
    '/mgr/pagesched/edit',
    'tag.write',
    EditPageScheduleBody,
    PageSchedule,
    'Change a page schedule; a window under way ends (its tags show page 1) and the schedule starts again as changed',
    change,
  ),
  deletePageSchedule: call(
    '/mgr/pagesched/delete',
    'tag.write',
    DeletePageScheduleBody,
    DeletePageScheduleData,
    'Delete page schedules (all or nothing); tags showing their page go back to page 1',
    change,
  ),
} as const;

export const PAGE_SCHEDULE_CALL_NAMES = {
  pageScheduleList: { 'zh-CN': '查询页面计划', en: 'List page schedules' },
  addPageSchedule: { 'zh-CN': '添加页面计划', en: 'Add a page schedule' },
  editPageSchedule: { 'zh-CN': '修改页面计划', en: 'Edit a page schedule' },
  deletePageSchedule: { 'zh-CN': '删除页面计划', en: 'Delete page schedules' },
} as const satisfies Record<keyof typeof PAGE_SCHEDULE_CALLS, Messages>;
