import {
  ShopStatic,
  TagChangeStat,
  TagChangeStatBody,
  TagModelDistribution,
  TagShopDistribution,
} from '../api/summary';
import { Empty } from '../common';
import { call } from './define';

/** The dashboard's figures. */
export const SUMMARY_CALLS = {
  shopStatic: call(
    '/sumary/getshopstatic',
    'dashboard.read',
    Empty,
    ShopStatic,
    'Figures of the current store: base stations, tags by status, bound tags, products; templates; totals of the visible stores',
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
    'Tag and product changes per day in the current store (successful operation-log rows), last `days` days',
  ),
} as const;
