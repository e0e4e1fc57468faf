import { z } from 'zod';
import { Id, Line, Paging, RequiredLine } from '../common';
import { BAD_SIGNAL_DBM, LOW_BATTERY_PCT, PENDING_DEADLINE_MS } from './problems';
import { isTimeZone } from './schedule';

export const Store = z.object({
  id: z.number().int(),
  name: z.string(),
  code: z.string(),
  /** Used by the store picker (SPEC.md §3). */
  key: z.string(),
  address: z.string(),
  contact: z.string(),
  phone: z.string(),
  remark: z.string(),
  createdAt: z.number().int(),
});
export type Store = z.infer<typeof Store>;

export const StoreListBody = Paging.extend({ name: Line(64).optional(), code: Line(32).optional() });

const StoreFields = {
  name: RequiredLine(64),
  code: RequiredLine(32).regex(/^[A-Za-z0-9_-]+$/, 'invalid'),
  address: Line(200).default(''),
  contact: Line(64).default(''),
  phone: Line(32).default(''),
  remark: Line(500).default(''),
};
export const AddStoreBody = z.object(StoreFields);
export const AlterStoreBody = z.object({
  id: Id,
  name: StoreFields.name.optional(),
  code: RequiredLine(32)
    .regex(/^[A-Za-z0-9_-]+$/, 'invalid')
    .optional(),
  address: Line(200).optional(),
  contact: Line(64).optional(),
  phone: Line(32).optional(),
  remark: Line(500).optional(),
});

/** A store's operating parameters. */
export const StoreParams = z.object({
  currency: Line(4).default('¥'),
  priceDecimals: z.number().int().min(0).max(3).default(2),
  /** How often base stations report, in seconds. */
  heartbeatSeconds: z.number().int().min(10).max(3600).default(60),
  /** How often tags wake to poll their base station, in seconds. */
  tagPollSeconds: z.number().int().min(5).max(600).default(30),
  /** Quiet hours with no refreshes, "HH:MM"; empty for none. */
  quietStart: z
    .string()
    .regex(/^$|^([01]\d|2[0-3]):[0-5]\d$/)
    .default(''),
  quietEnd: z
    .string()
    .regex(/^$|^([01]\d|2[0-3]):[0-5]\d$/)
    .default(''),
  ledColour: z.enum(['red', 'green', 'blue', 'white']).default('green'),
  ledSeconds: z.number().int().min(1).max(600).default(10),
  autoRefresh: z.boolean().default(true),
  /** Tag status (DELIVERY.md §5.5): heard within this many wake intervals → normal (or online, an update pending). */
  tagMissedWakes: z.number().int().min(2).max(20).default(3),
  /** Not heard for this long → offline (before it: communication interruption), minutes. */
  tagOfflineMinutes: z.number().int().min(5).max(1440).default(60),
  /** Not heard for this long → tag lost, hours. */
  tagLostHours: z.number().int().min(1).max(720).default(24),
  /** The tag log and the data-push log keep this many days (DELIVERY.md §5.1). */
  tagLogDays: z.number().int().min(1).max(3650).default(90),
  /** Problems to act on (docs/PROBLEMS.md): a battery at or below this percentage is low. */
  lowBatteryPercent: z.number().int().min(1).max(60).default(LOW_BATTERY_PCT),
  /** A signal at or below this many dBm is bad. */
  badSignalDbm: z.number().int().min(-120).max(-40).default(BAD_SIGNAL_DBM),
  /** A label still on its way this many minutes after it was due is pending too long. */
  pendingDeadlineMinutes: z
    .number()
    .int()
    .min(5)
    .max(1440)
    .default(PENDING_DEADLINE_MS / 60_000),
  /** IANA time zone: scheduled changes name wall-clock times of the store (docs/SCHEDULE.md). */
  timeZone: z.string().max(64).refine(isTimeZone, 'invalid').default('Asia/Shanghai'),
});
export type StoreParams = z.infer<typeof StoreParams>;

export const GetStoreParamsBody = z.object({ id: Id });
export const StoreParamsData = z.object({ id: z.number().int(), params: StoreParams });
export const SetStoreParamsBody = z.object({ id: Id, params: StoreParams });
