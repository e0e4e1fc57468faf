import { z } from 'zod';
import { Paging } from '../common';

/*
 * Proof of price (issue 29 item 6, docs/PROOF.md): per store, every bound tag with the price its
 * current screen was rendered from beside its product's price now, whether they agree, and when
 * the tag last confirmed a picture.
 */

/**
 * agree: the screen was rendered from this product at its price now; disagree: from another price,
 * another product or none (the label of an unbound tag); unknown: what it was rendered from is not
 * known (no picture of it confirmed since proof of price began, or it reports a picture not sent to it).
 */
export const PROOF_STATES = ['agree', 'disagree', 'unknown'] as const;
export const ProofState = z.enum(PROOF_STATES);
export type ProofState = z.infer<typeof ProofState>;

export const ProofFilter = z.object({
  /** Only the tags not proven to agree (disagreeing and unknown). */
  wrongOnly: z.boolean().default(false),
});

export const ProofListBody = Paging.extend(ProofFilter.shape);
export const ProofExportBody = ProofFilter;
export const PROOF_EXPORT_PATH = '/mgr/proof/export';

export const PriceProof = z.object({
  /** The tag's id. */
  id: z.number().int(),
  hardwareId: z.string(),
  productId: z.number().int(),
  barcode: z.string(),
  productName: z.string(),
  /** The product's price now. */
  price: z.string(),
  /** The price the tag's current screen was rendered from; null: not known, or rendered from no product. */
  screenPrice: z.string().nullable(),
  /** The screen was rendered from another product, or from none (the tag was bound since). */
  otherProduct: z.boolean(),
  state: ProofState,
  /** When the screen was rendered from that price, Unix ms. */
  renderedAt: z.number().int().nullable(),
  /** When the tag last confirmed a picture (a delivery's result). */
  confirmedAt: z.number().int().nullable(),
  /** When the tag was last heard. */
  lastSeen: z.number().int().nullable(),
  /** Since when the screen has disagreed with the price (as the watch behind the callback counts it). */
  wrongSince: z.number().int().nullable(),
  /** A newer label is on its way to the tag. */
  pending: z.boolean(),
});
export type PriceProof = z.infer<typeof PriceProof>;

export const ProofSummary = z.object({
  /** Bound tags of the store. */
  total: z.number().int(),
  agree: z.number().int(),
  disagree: z.number().int(),
  unknown: z.number().int(),
  /** After how many minutes of a wrong price the tenant's `price.wrong` callback goes out. */
  alertMinutes: z.number().int(),
});
export type ProofSummary = z.infer<typeof ProofSummary>;
