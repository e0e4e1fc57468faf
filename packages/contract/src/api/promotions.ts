import { z } from 'zod';
import { Id, Ids, Line, Paging, RequiredLine } from '../common';
import { Price } from './products';
import { LocalTime, SCHEDULE_SCOPES } from './schedule';

/*
 * Promotions (issue 29 item 2, docs/PROMOTIONS.md): from `startAt` to `endAt` (wall clock of each
 * store) the products it covers show the promotional price, the regular price struck through and
 * the promotion text, on the template's promotion variant; the regular label after it. Products by
 * barcode, or every product whose field `matchKey` is `matchValue` (a category). Overlap rule: of
 * the promotions covering a product at a moment the lowest price wins; equal prices, the one
 * added last.
 */

export const PROMOTION_STATES = ['pending', 'started', 'ended', 'cancelled'] as const;
export type PromotionState = (typeof PROMOTION_STATES)[number];

/** The rule-field key a template rule matches to pick a template's promotion variant (value "1"). */
export const PROMOTION_RULE_KEY = 'promotion';
/** The label data key of the promotion text (the starter templates' 促销语 field). */
export const PROMOTION_TEXT_KEY = 'promo';

const Target = {
  /** The products it covers by barcode; empty: by `matchKey` = `matchValue`. */
  barcodes: z.array(RequiredLine(64)).max(2000).default([]),
  matchKey: Line(64).default(''),
  matchValue: Line(100).default(''),
};

export const targetGiven = (
  b: { barcodes?: string[]; matchKey?: string; matchValue?: string },
  ctx: z.RefinementCtx,
) => {
  if (b.barcodes === undefined && b.matchKey === undefined) return;
  if ((b.barcodes?.length ?? 0) === 0 && !(b.matchKey && b.matchValue))
    ctx.addIssue({ code: 'custom', path: ['barcodes'], message: 'required' });
};

export const timesInOrder = (b: { startAt?: string; endAt?: string }, ctx: z.RefinementCtx) => {
  if (b.startAt && b.endAt && b.endAt <= b.startAt)
    ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'beforeStart' });
};

/** The fields of a new promotion, before the checks across fields (the ERP API's body adds `store`). */
export const AddPromotionFields = z.object({
  name: Line(100).default(''),
  text: Line(100).default(''),
  price: Price,
  ...Target,
  startAt: LocalTime,
  endAt: LocalTime,
  /** `chain`: a promotion in every store the caller may see, each on its own clock. */
  scope: z.enum(SCHEDULE_SCOPES).default('store'),
});
export const AddPromotionBody = AddPromotionFields.superRefine(targetGiven).superRefine(timesInOrder);
export const AddPromotionData = z.object({ ids: z.array(z.number().int()), stores: z.number().int() });

/** Fields given replace those of a promotion that has not ended (a started one keeps its start). */
export const EditPromotionFields = z.object({
  id: Id,
  name: Line(100).optional(),
  text: Line(100).optional(),
  price: Price.optional(),
  barcodes: Target.barcodes.unwrap().optional(),
  matchKey: Line(64).optional(),
  matchValue: Line(100).optional(),
  startAt: LocalTime.optional(),
  endAt: LocalTime.optional(),
});
export const EditPromotionBody = EditPromotionFields.superRefine(targetGiven).superRefine(timesInOrder);
export const CancelPromotionBody = z.object({ ids: Ids });
export const CancelPromotionData = z.object({ cancelled: z.number().int() });

export const PromotionListBody = Paging.extend({ state: z.enum(PROMOTION_STATES).optional() });

export const Promotion = z.object({
  id: z.number().int(),
  storeId: z.number().int(),
  name: z.string(),
  text: z.string(),
  price: z.string(),
  barcodes: z.array(z.string()),
  matchKey: z.string(),
  matchValue: z.string(),
  /** Unix ms, and as the store's wall clock in its time zone. */
  start: z.number().int(),
  end: z.number().int(),
  startAt: z.string(),
  endAt: z.string(),
  timeZone: z.string(),
  state: z.enum(PROMOTION_STATES),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Promotion = z.infer<typeof Promotion>;
