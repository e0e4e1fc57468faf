import { z } from 'zod';
import { Id, Line, Paging } from '../common';

const Range = { from: z.number().int().optional(), to: z.number().int().optional() };

export const OpLogListBody = Paging.extend({
  username: Line(64).optional(),
  call: Line(100).optional(),
  storeId: Id.optional(),
  ...Range,
});
export const OpLog = z.object({
  id: z.number().int(),
  time: z.number().int(),
  username: z.string(),
  storeId: z.number().int().nullable(),
  storeName: z.string(),
  /** The call's path, as logged (the filter `call` matches it). */
  call: z.string(),
  /** The call's name in the reader's language (its path when the call no longer exists). */
  operation: z.string(),
  /** What the call acted on, in the reader's language with the object's name. */
  target: z.string(),
  code: z.number().int(),
  msg: z.string(),
  ip: z.string(),
});
export type OpLog = z.infer<typeof OpLog>;

export const SysLogLevel = z.enum(['info', 'warn', 'error']);
export const SysLogListBody = Paging.extend({ level: SysLogLevel.optional(), event: Line(64).optional(), ...Range });
export const SysLog = z.object({
  id: z.number().int(),
  time: z.number().int(),
  level: SysLogLevel,
  event: z.string(),
  message: z.string(),
});
export type SysLog = z.infer<typeof SysLog>;
