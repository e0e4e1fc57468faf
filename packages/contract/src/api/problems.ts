import { z } from 'zod';
import { Paging } from '../common';
import type { Messages } from '../errors';

/*
 * Problems to act on (issue 29 item 4, docs/PROBLEMS.md): per store, what is wrong now — each kind
 * with a count, a list and the action that fixes it — and per store counts for the chain.
 */

/** The kinds, in the order the console shows them (docs/PROBLEMS.md defines each). */
export const PROBLEM_KINDS = [
  'stationOffline',
  'stationRadioSilent',
  'updateFailed',
  'pendingOverdue',
  'labelOffline',
  'misused',
  'lowBattery',
  'badSignal',
] as const;
export const ProblemKind = z.enum(PROBLEM_KINDS);
export type ProblemKind = z.infer<typeof ProblemKind>;

/** Why a tag is misused: its product was deleted, its product belongs to another store, it was heard in another store. */
export const MISUSE_REASONS = ['productGone', 'otherStoreProduct', 'wrongStore'] as const;
export type MisuseReason = (typeof MISUSE_REASONS)[number];

/** Battery at or below this percentage is low (docs/PROBLEMS.md). */
export const LOW_BATTERY_PCT = 20;
/** Signal at or below this many dBm is bad (docs/PROBLEMS.md). */
export const BAD_SIGNAL_DBM = -85;
/** A label still on its way this long after it was due is overdue (docs/PROBLEMS.md). */
export const PENDING_DEADLINE_MS = 30 * 60_000;

export const PROBLEM_KIND_LABELS: Record<ProblemKind, Messages> = {
  stationOffline: { 'zh-CN': '基站离线', en: 'Base station offline' },
  stationRadioSilent: { 'zh-CN': '基站无线静默', en: 'Base station radio silent' },
  updateFailed: { 'zh-CN': '更新失败', en: 'Update failed' },
  pendingOverdue: { 'zh-CN': '等待超时', en: 'Pending past its deadline' },
  labelOffline: { 'zh-CN': '价签离线', en: 'Label offline' },
  misused: { 'zh-CN': '误用', en: 'Misused' },
  lowBattery: { 'zh-CN': '电量低', en: 'Low battery' },
  badSignal: { 'zh-CN': '信号差', en: 'Bad signal' },
};

export const ProblemsFilter = z.object({
  /** One kind only; absent: every kind. */
  kind: ProblemKind.optional(),
});

export const ProblemsListBody = Paging.extend(ProblemsFilter.shape);
export const ProblemsExportBody = ProblemsFilter;
export const PROBLEMS_EXPORT_PATH = '/mgr/problems/export';

export const Problem = z.object({
  kind: ProblemKind,
  /** What is wrong: a tag or a base station. */
  subject: z.enum(['tag', 'station']),
  /** The tag's or the station's id. */
  id: z.number().int(),
  /** The tag's hardware ID, or the station's serial number. */
  code: z.string(),
  /** The bound product's name (a tag), or the station's name. */
  name: z.string(),
  /** The product's barcode (a tag with a product); '' otherwise. */
  barcode: z.string(),
  /**
   * What the kind says more: the failure code (updateFailed), the status (labelOffline), the
   * battery % (lowBattery), the signal dBm (badSignal), the reason (misused: MISUSE_REASONS), the
   * task state (pendingOverdue); '' for the stations.
   */
  detail: z.string(),
  /** The store a misused tag was heard in (wrongStore); '' otherwise. */
  otherStore: z.string(),
  /** Since when, as the platform knows it (Unix ms); null: not known. */
  since: z.number().int().nullable(),
});
export type Problem = z.infer<typeof Problem>;

export const ProblemCounts = z.object(
  Object.fromEntries(PROBLEM_KINDS.map((k) => [k, z.number().int()])) as Record<ProblemKind, z.ZodNumber>,
);
export type ProblemCounts = z.infer<typeof ProblemCounts>;

export const ProblemsSummary = z.object({
  storeId: z.number().int(),
  /** Per kind, how many. */
  counts: ProblemCounts,
  total: z.number().int(),
});
export type ProblemsSummary = z.infer<typeof ProblemsSummary>;

export const ProblemsChainRow = z.object({
  storeId: z.number().int(),
  name: z.string(),
  counts: ProblemCounts,
  total: z.number().int(),
});
export type ProblemsChainRow = z.infer<typeof ProblemsChainRow>;
