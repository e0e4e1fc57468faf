import { findTagModel } from '@esl/contract';
import type { TagsMsg } from '@esl/contract/protocol';
import * as models from '../../../modules/models/service';
import { inOrder, NEWS_ORDER } from '../../link/consumers';
import type { GatewayCore } from '../core';
import { adoptReported } from '../models';
import type { StationIdentity } from '../repository';
import * as repo from './repository';
import type { StatusThresholds } from './status';

/*
 * A station's tag report (docs/PROTOCOL.md §5.7): the latest entry per tag stored on the tag's
 * row (signal, battery, the picture and firmware it shows, its route with 6 dB of hysteresis),
 * status recomputed, the consoles told, then every consumer: the task engine re-opens the work of
 * tags that show another picture than they should, the firmware engine reads the versions. A
 * button or NFC wake-up (the entry's `reason`) is a system-log event of the tenant (`tag.button`,
 * `tag.nfc`), once per wake.
 */

type Entry = TagsMsg['tags'][number];

/** What a report changed, gathered from both ways of storing it. */
interface Stored {
  ids: number[];
  /** Tags that report another picture than they should show (their work may need re-opening). */
  mismatched: number[];
  /** Tags to take a learned model, by key. */
  adopt: Map<string, number[]>;
  wakes: { hardwareId: string; reason: 'button' | 'nfc' }[];
}

/** Handles one report from `station` (`id`: `{tid}.{sn}`, for drops). */
export async function onTagReport(
  core: GatewayCore,
  id: string,
  station: StationIdentity,
  m: TagsMsg,
  /** The store's thresholds when the caller read them with the station; else looked up. */
  thresholds?: StatusThresholds,
) {
  const { db } = core;
  const t = core.now();
  const latest = new Map<string, Entry>();
  for (const e of m.tags) {
    const prev = latest.get(e.id);
    if (!prev || e.seenAt >= prev.seenAt) latest.set(e.id, e);
  }
  if (latest.size === 0) return;
  // Learned model keys (docs/PROTOCOL.md §5.13), looked up for the station's tenant only.
  const keys = new Set<string>();
  for (const e of latest.values()) if (e.hw.length > 2) keys.add(e.hw);
  const learned = await models.learnedAmong(db, station.tenant_id, keys);
  const th = thresholds ?? (await repo.thresholdsOfStore(db, station.store_id));
  const stored: Stored = { ids: [], mismatched: [], adopt: new Map(), wakes: [] };
  // Age within the report, in the server's clock: immune to the station's clock error.
  const lastSeenOf = (e: Entry) => Math.min(t, t - Math.max(0, m.at - e.seenAt));
  const entries = [...latest.values()];
  const inPlace = await repo.storeHeardInPlace(
    db,
    { id: station.id, tenantId: station.tenant_id, storeId: station.store_id },
    entries.map((e) => ({
      hardwareId: e.id,
      rssi: Math.round(e.rssi),
      battery: batteryPercent(e.battMv),
      temperature: e.temp === undefined ? null : Math.round(e.temp),
      hardwareModel: hardwareModelOf(e),
      lastSeen: lastSeenOf(e),
      wakeS: e.wakeS ?? null,
      shownVer: e.ver,
      shownPage: e.page ?? 1,
      fw: e.fw ?? null,
      learnedModel: e.hw.length > 2 && learned.has(e.hw) ? e.hw : null,
    })),
    t,
    th,
  );
  // The rest (every entry where nothing is stored in place): looked up first, then stored.
  let rest = entries;
  if (inPlace) {
    rest = [];
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i] as Entry;
      const tagId = inPlace[i] as number;
      if (tagId < 0) rest.push(e);
      else if (tagId === 0) core.counters.unregisteredTags++;
      // Stored: its picture is the one it should show and its model the learned one it reports.
      else heard(core, stored, learned, tagId, null, e.hw, e, lastSeenOf(e));
    }
  }
  if (rest.length > 0) await storeLookedUp(core, id, station, stored, learned, rest, lastSeenOf, t, th);
  if (stored.ids.length === 0) return;
  core.counters.tagEntries += stored.ids.length;
  if (stored.adopt.size > 0) await adoptReported(core, station.tenant_id, stored.adopt, learned);
  for (const w of stored.wakes) {
    core.syslog({
      tenantId: station.tenant_id,
      level: 'info',
      event: `tag.${w.reason}`,
      message: `tag ${w.hardwareId} woke by ${w.reason === 'button' ? 'its button' : 'NFC'} (station ${station.sn})`,
    });
  }
  core.notices.broadcast(station.tenant_id, { type: 'tag.changed', storeId: station.store_id, ids: stored.ids });
  for (const c of inOrder(core.consumers, NEWS_ORDER)) {
    await c.onTagsReported?.(stored.mismatched);
    await c.onTags?.(station, m);
  }
}

/** A learned model is kept by its key (the console names it); an unknown key too, shown as such. */
function hardwareModelOf(e: Entry): string {
  return e.hw.length > 2 ? e.hw : (findTagModel(e.hw)?.name ?? e.hw);
}

/** What follows a stored entry of tag `tagId` (which should show `desired`, of model `model`). */
function heard(
  core: GatewayCore,
  stored: Stored,
  learned: ReadonlyMap<string, unknown>,
  tagId: number,
  desired: string | null,
  model: string,
  e: Entry,
  lastSeen: number,
) {
  stored.ids.push(tagId);
  if ((e.reason === 'button' || e.reason === 'nfc') && newWake(core.wakes, tagId, lastSeen)) {
    stored.wakes.push({ hardwareId: e.id, reason: e.reason });
  }
  if (e.hw.length > 2) {
    if (!learned.has(e.hw)) core.counters.unknownModels++;
    else if (model !== e.hw) stored.adopt.set(e.hw, [...(stored.adopt.get(e.hw) ?? []), tagId]);
  }
  // Only a tag that reports another picture than it should show can need its work re-opened.
  if (desired !== null && desired.slice(0, 16) !== (e.ver ?? '')) stored.mismatched.push(tagId);
}

/**
 * Entries stored after a look at their rows: every entry on PostgreSQL, and on SQLite those the
 * in-place store left (unregistered, another tenant's or store's, moving to this station).
 */
async function storeLookedUp(
  core: GatewayCore,
  id: string,
  station: StationIdentity,
  stored: Stored,
  learned: ReadonlyMap<string, unknown>,
  entries: readonly Entry[],
  lastSeenOf: (e: Entry) => number,
  t: number,
  th: StatusThresholds,
) {
  const { db, counters } = core;
  const byId = new Map<string, Entry>();
  for (const e of entries) byId.set(e.id, e);
  // Decided from the rows as looked up (on PostgreSQL run again if the transaction is): only
  // computing here; what follows (counters, drops, wakes) once it is stored.
  const { known, heardTags, foreign, strayed } = await repo.lookUpAndStore(
    db,
    [...byId.keys()],
    (rows) => {
      const updates: repo.TagUpdate[] = [];
      const heardTags: Array<{ tag: repo.ReportedTag; e: Entry; lastSeen: number }> = [];
      let foreign = 0;
      // Tags of another store of this tenant: heard in the wrong store (a misused tag, docs/PROBLEMS.md).
      const strayed: number[] = [];
      for (const tag of rows) {
        // Another tenant's tag, or a tag of another store: not this station's to report.
        if (tag.tenant_id !== station.tenant_id || tag.store_id !== station.store_id) {
          foreign++;
          if (tag.tenant_id === station.tenant_id) strayed.push(tag.id);
          continue;
        }
        const e = byId.get(tag.hardware_id);
        if (!e) continue;
        const rssi = Math.round(e.rssi);
        const route = routeTo(tag, station.id, rssi);
        const lastSeen = lastSeenOf(e);
        updates.push({
          id: tag.id,
          stationId: route,
          // The signal belongs to the station the tag is routed to (the hysteresis compares it).
          signal: route === station.id ? rssi : (tag.signal ?? rssi),
          battery: batteryPercent(e.battMv),
          temperature: e.temp === undefined ? null : Math.round(e.temp),
          hardwareModel: hardwareModelOf(e),
          lastSeen,
          wakeS: e.wakeS ?? null,
          wakeSBefore: tag.wake_s,
          desiredBefore: tag.desired_hash,
          statusBefore: tag.status,
          shownVer: e.ver,
          shownPage: e.page ?? 1,
          fw: e.fw ?? null,
          stationChanged: route !== tag.station_id,
        });
        heardTags.push({ tag, e, lastSeen });
      }
      return { updates, result: { known: rows.length, heardTags, foreign, strayed } };
    },
    t,
    th,
  );
  counters.unregisteredTags += byId.size - known;
  for (const { tag, e, lastSeen } of heardTags) {
    heard(core, stored, learned, tag.id, tag.desired_hash, tag.model, e, lastSeen);
  }
  if (foreign > 0) core.drop(id, 'foreignTag', foreign);
  if (strayed.length > 0) await repo.heardElsewhere(db, station.tenant_id, strayed, station.id, t);
}

/**
 * A button or NFC wake-up not written yet: the tag's last one written (its last-seen, per tag in
 * this process) is more than `WAKE_DEBOUNCE_MS` older. The same wake comes again in later entries:
 * a report refreshed with a second's jitter (an OEPL AP stamps check-ins in whole seconds), the
 * record of the transfer the press let the tag take, a full report; two presses within the window
 * are one event, as Home Assistant debounces them.
 */
const WAKE_DEBOUNCE_MS = 30_000;
const WAKES_KEPT = 10_000;
function newWake(written: Map<number, number>, tagId: number, seenAt: number): boolean {
  const last = written.get(tagId);
  if (last !== undefined && seenAt <= last + WAKE_DEBOUNCE_MS) return false;
  written.delete(tagId);
  written.set(tagId, seenAt);
  if (written.size > WAKES_KEPT) {
    const oldest = written.keys().next().value;
    if (oldest !== undefined) written.delete(oldest);
  }
  return true;
}

/**
 * Which station a tag is routed to: the reporting one when the tag had none, already was its, its
 * station is offline, or this one hears it clearly better (6 dB of hysteresis against ping-pong).
 */
function routeTo(
  tag: { station_id: number | null; signal: number | null; station_online: number | null },
  reporting: number,
  rssi: number,
): number {
  if (tag.station_id === null || tag.station_id === reporting) return reporting;
  if (!Number(tag.station_online)) return reporting;
  if (tag.signal === null || rssi >= tag.signal + 6) return reporting;
  return tag.station_id;
}

/** A coin cell's voltage as a rough charge: 2.2 V empty … 3.0 V full (docs/PROTOCOL.md). */
export function batteryPercent(mv: number): number {
  return Math.max(0, Math.min(100, Math.round(((mv - 2200) / 800) * 100)));
}
