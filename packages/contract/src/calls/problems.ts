import {
  PROBLEMS_EXPORT_PATH,
  Problem,
  ProblemsChainRow,
  ProblemsExportBody,
  ProblemsListBody,
  ProblemsSummary,
} from '../api/problems';
import { Empty, Nothing } from '../common';
import type { Messages } from '../errors';
import { call, list } from './define';
import { XLSX_TYPE } from './products';

/** Problems to act on (docs/PROBLEMS.md); the per-store calls need a current store (STORE_NOT_SET). */
export const PROBLEM_CALLS = {
  problemsList: call(
    '/mgr/problems/list',
    'tag.read',
    ProblemsListBody,
    Problem,
    "List what is wrong now in the current store (base stations first, then the tags' problems by kind)",
    list,
  ),
  problemsSummary: call(
    '/mgr/problems/summary',
    'tag.read',
    Empty,
    ProblemsSummary,
    'How many problems of each kind the current store has now',
  ),
  problemsChain: call(
    '/mgr/problems/chain',
    'dashboard.read',
    Empty,
    ProblemsChainRow,
    'Per store the caller may see (every store for an administrator), how many problems of each kind it has now',
    list,
  ),
  problemsExport: call(
    PROBLEMS_EXPORT_PATH,
    'tag.read',
    ProblemsExportBody,
    Nothing,
    'Export the problems of the current store as an XLSX file (refusals answer the envelope)',
    { file: { type: XLSX_TYPE, filename: 'problems.xlsx' } },
  ),
} as const;

export const PROBLEM_CALL_NAMES = {
  problemsList: { 'zh-CN': '查询待处理问题', en: 'List problems' },
  problemsSummary: { 'zh-CN': '待处理问题汇总', en: 'Problems summary' },
  problemsChain: { 'zh-CN': '各门店问题汇总', en: 'Problems per store' },
  problemsExport: { 'zh-CN': '导出待处理问题', en: 'Export problems' },
} as const satisfies Record<keyof typeof PROBLEM_CALLS, Messages>;
