import { z } from 'zod';
import { Id, Line, Paging } from '../common';

/**
 * A base station (access point) of the current store. The runtime figures stay null or empty
 * until the station reports them over MQTT (the delivery layer, later).
 */
export const Station = z.object({
  id: z.number().int(),
  /** Serial number, upper case, unique per tenant. */
  sn: z.string(),
  name: z.string(),
  module: z.string(),
  /** Usage in percent, 0–100; null until reported. */
  cpu: z.number().nullable(),
  memory: z.number().nullable(),
  disk: z.number().nullable(),
  ip: z.string(),
  mac: z.string(),
  wifiPassword: z.string(),
  ntpServer: z.string(),
  gateway: z.string(),
  mask: z.string(),
  serverAddress: z.string(),
  serverPort: z.number().int().nullable(),
  upgradeUrl: z.string(),
  firmware: z.string(),
  /** Unix ms of the last heartbeat; null when the station never reported. */
  lastHeartbeat: z.number().int().nullable(),
  online: z.boolean(),
  createdAt: z.number().int(),
});
export type Station = z.infer<typeof Station>;

/** Serial numbers: letters, digits, '-' and '_'; stored upper case. */
export const StationSn = z
  .string()
  .trim()
  .min(1, 'required')
  .max(32)
  .regex(/^[A-Za-z0-9_-]+$/, 'invalid')
  .transform((s) => s.toUpperCase());

export const AddStationBody = z.object({
  sn: StationSn,
  name: Line(64).default(''),
  module: Line(32).default(''),
});

/** The added station plus its MQTT secret, shown this once; the server keeps only a hash of it. */
export const AddStationData = Station.extend({ secret: z.string() });
export type AddStationData = z.infer<typeof AddStationData>;

export const StationListBody = Paging.extend({
  /** Contained in the serial number or the name, case-insensitive. */
  text: Line(64).optional(),
  online: z.boolean().optional(),
});

export const OpenCmdWindowBody = z.object({ id: Id });
/** The request is recorded; `delivered` stays false until the delivery layer exists. */
export const OpenCmdWindowData = z.object({ id: z.number().int(), delivered: z.boolean() });
