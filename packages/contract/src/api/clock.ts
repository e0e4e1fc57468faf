import { z } from 'zod';

/*
 * The wall-clock time and scope of a scheduled change (docs/SCHEDULE.md), apart from schedule.ts
 * so the import's options (products.ts, which schedule.ts builds on) can name them too.
 */

/** A wall-clock time of the stores, `YYYY-MM-DDTHH:mm` (read in each store's time zone). */
export const LocalTime = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/);

/** `store`: the current store's product; `chain`: also the same barcode's in every store the caller may see. */
export const SCHEDULE_SCOPES = ['store', 'chain'] as const;
