import {
  ShopStatic,
  TagChangeStat,
  TagChangeStatBody,
  TagModelDistribution,
  TagShopDistribution,
} from '../api/summary';
import { Empty } from '../common';
import type { Messages } from '../errors';
import { call } from './define';

/** The dashboard's figures. */
export const SUMMARY_CALLS = {
  shopStatic: call(
    '/sumary/getshopstatic',
    'dashboard.read',
    Empty,
    ShopStatic,
    'Figures of the current store: base stations, tags by status, bound tags, products, delivery (queued, in flight, done and failed in 24 h, median latency); templates; totals of the visible stores',
  ),
  tagModelDistribution: call(
    '/sumary/gettagmodeldistribution',
    'dashboard.read',
    Empty,
    TagModelDistribution,
    'Tags of the current store per model, most first',
  ),
  tagShopDistribution: call(
    '/sumary/gettagshopdistribution',
    'dashboard.read',
    Empty,
    TagShopDistribution,
    'Tags per store the caller may see, most first (stores without tags included)',
  ),
  tagChangeStat: call(
    '/sumary/gettagchanglogsatat',
    'dashboard.read',
    TagChangeStatBody,
    TagChangeStat,
    'Per day in the current store, last `days` days: screen updates delivered and failed (tag log), tag and product changes (successful operation-log rows)',
  ),
} as const;

/** What the console and the operation log call each operation, in both languages. */
export const SUMMARY_CALL_NAMES = {
  shopStatic: { 'zh-CN': '读取门店统计', en: 'Read store figures' },
  tagModelDistribution: { 'zh-CN': '读取价签型号分布', en: 'Read tags per model' },
  tagShopDistribution: { 'zh-CN': '读取门店价签分布', en: 'Read tags per store' },
  tagChangeStat: { 'zh-CN': '读取变更统计', en: 'Read changes per day' },
} as const satisfies Record<keyof typeof SUMMARY_CALLS, Messages>;
