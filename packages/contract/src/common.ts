import { z } from 'zod';

/** The console sends a SHA-256 hex digest of every typed password (DESIGN.md §4). */
export const PasswordDigest = z
  .string()
  .regex(/^[0-9a-f]{64}$/i, 'digest')
  .transform((s) => s.toLowerCase());

export const Id = z.coerce.number().int().positive();
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

export const Paging = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(2000).default(20),
});
export type Paging = z.infer<typeof Paging>;

/** Unix milliseconds. */
export const Timestamp = z.number().int();

export const Empty = z.object({});
export const Nothing = z.null();

export const ShopRef = z.object({ id: z.number().int(), name: z.string() });
export type ShopRef = z.infer<typeof ShopRef>;
