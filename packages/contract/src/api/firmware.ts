import { z } from 'zod';
import { Id, Paging } from '../common';

/*
 * Firmware upgrades (docs/PROTOCOL.md §10 for the file, §5.12 for the rollout). The platform
 * operator uploads firmware files once for the whole platform; a tenant's administrators upgrade
 * their stores' stations, radio modules and tags with them.
 */

export const FIRMWARE_FILE_KINDS = ['ap', 'module', 'tag'] as const;
export const FirmwareFileKind = z.enum(FIRMWARE_FILE_KINDS);
export type FirmwareFileKind = z.infer<typeof FirmwareFileKind>;

/** Largest firmware file the upload takes, bytes (header + payload). */
export const FIRMWARE_UPLOAD_MAX_BYTES = 16 * 1024 * 1024 + 8192;

/** A stored firmware file, as a tenant picks it for an upgrade. */
export const FirmwareChoice = z.object({
  id: z.number().int(),
  kind: FirmwareFileKind,
  version: z.string(),
  name: z.string(),
  size: z.number().int(),
  /** SHA-256 of the file. */
  hash: z.string(),
  /** Station models it installs on (station and module firmware). */
  models: z.array(z.string()),
  /** Tag hardware codes it installs on (tag firmware). */
  hw: z.array(z.string()),
  createdAt: z.number().int(),
});
export type FirmwareChoice = z.infer<typeof FirmwareChoice>;

export const FirmwareChoiceBody = z.object({ kind: FirmwareFileKind.optional() });

/** Upgrade base stations or their radio modules of the current store with a firmware file. */
export const UpgradeStationsBody = z.object({ firmwareId: Id, ids: z.array(Id).min(1).max(500) });
/** Upgrade the current store's tags the firmware fits (all of them, or the ones listed). */
export const UpgradeTagsBody = z.object({ firmwareId: Id, ids: z.array(Id).min(1).max(20_000).optional() });

export const UpgradeStarted = z.object({
  /** Devices whose upgrade was queued. */
  tasks: z.number().int(),
  /** Devices left out: the firmware does not fit their model or hardware. */
  incompatible: z.number().int(),
  /** Devices left out: they already run this version. */
  current: z.number().int(),
});
export type UpgradeStarted = z.infer<typeof UpgradeStarted>;

export const StopTagUpgradeBody = z.object({});
export const UpgradeStopped = z.object({
  /** Queued tag upgrades cancelled. */
  cancelled: z.number().int(),
  /** Tag upgrades already at a station, asked to stop (one already transferring finishes). */
  stopping: z.number().int(),
});

export const UPGRADE_STATES = ['queued', 'sent', 'accepted', 'installing', 'done', 'failed', 'cancelled'] as const;
export const UpgradeState = z.enum(UPGRADE_STATES);
export type UpgradeState = z.infer<typeof UpgradeState>;
export const UPGRADE_KINDS = ['apfw', 'modulefw', 'tagfw'] as const;
export const UpgradeKind = z.enum(UPGRADE_KINDS);
export type UpgradeKind = z.infer<typeof UpgradeKind>;

export const UpgradeListBody = Paging.extend({ kind: UpgradeKind.optional(), state: UpgradeState.optional() });

/** One device's upgrade, as the console shows it (and `firmware.progress` notices update it). */
export const UpgradeTask = z.object({
  id: z.number().int(),
  kind: UpgradeKind,
  /** The station's serial, or the tag's hardware ID. */
  device: z.string(),
  /** The station that carries it. */
  stationSn: z.string(),
  fromVersion: z.string(),
  version: z.string(),
  state: UpgradeState,
  /** Why it failed or stopped: rolledBack, badBlob, timeout, stopped, … ('' for none). */
  code: z.string(),
  attempt: z.number().int(),
  done: z.number().int(),
  total: z.number().int(),
  createdAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
});
export type UpgradeTask = z.infer<typeof UpgradeTask>;

/** What an upload answers: the stored file (an identical file uploaded again answers the stored one). */
export const UploadedFirmware = FirmwareChoice;
