import { z } from 'zod';

/** The console sends a SHA-256 hex digest of every typed password (DESIGN.md §4). */
export const PasswordDigest = z
  .string()
  .regex(/^[0-9a-f]{64}$/i, 'digest')
  .transform((s) => s.toLowerCase());

/** Row ids are PostgreSQL `integer`s: anything larger cannot name a row (and would not fit the column). */
export const MAX_ID = 2_147_483_647;
export const Id = z.coerce.number().int().positive().max(MAX_ID);
export const Ids = z.array(Id).min(1).max(2000);
export const DeleteBody = z.object({ ids: Ids });
export const DeleteData = z.object({ deleted: z.number().int() });

/** A single line of text: trimmed, no line breaks. */
export const Line = (max = 100) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !/[\r\n]/.test(s), 'lineBreak');
/** A single line of text that must not be empty. */
export const RequiredLine = (max = 100) =>
  z
    .string()
    .trim()
    .min(1, 'required')
    .max(max)
    .refine((s) => !/[\r\n]/.test(s), 'lineBreak');

/** Bounds the offset ((page − 1) × limit ≤ 2·10⁹) so no database can overflow it. */
export const MAX_PAGE = 1_000_000;
export const Paging = z.object({
  page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
  limit: z.coerce.number().int().min(1).max(2000).default(20),
});
export type Paging = z.infer<typeof Paging>;

/** Unix milliseconds. */
export const Timestamp = z.number().int();

export const Empty = z.object({});
export const Nothing = z.null();

export const ShopRef = z.object({ id: z.number().int(), name: z.string() });
export type ShopRef = z.infer<typeof ShopRef>;
