import { z } from 'zod';

/** Every answer: HTTP 200 with `{ code, msg, data }`; list answers add `count` (rows before paging). */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
  count?: number;
}

export function envelopeSchema<T extends z.ZodType>(data: T, list = false) {
  const base = z.object({ code: z.number().int(), msg: z.string(), data: list ? z.array(data) : data });
  return list ? base.extend({ count: z.number().int() }) : base;
}
