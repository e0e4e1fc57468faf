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
  call: z.string(),
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
