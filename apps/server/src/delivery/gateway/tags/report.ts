import { findTagModel } from '@esl/contract';
import type { TagsMsg } from '@esl/contract/protocol';
import { inOrder, NEWS_ORDER } from '../../link/consumers';
import type { GatewayCore } from '../core';
import type { StationIdentity } from '../repository';
import * as repo from './repository';

/*
 * A station's tag report (docs/PROTOCOL.md §5.7): the latest entry per tag stored on the tag's
 * row (signal, battery, the picture and firmware it shows, its route with 6 dB of hysteresis),
 * status recomputed, the consoles told, then every consumer: the task engine re-opens the work of
 * tags that show another picture than they should, the firmware engine reads the versions.
 */

/** Handles one report from `station` (`id`: `{tid}.{sn}`, for drops). */
export async function onTagReport(core: GatewayCore, id: string, station: StationIdentity, m: TagsMsg) {
  const { db, counters } = core;
  const t = core.now();
  const latest = new Map<string, TagsMsg['tags'][number]>();
  for (const e of m.tags) {
    const prev = latest.get(e.id);
    if (!prev || e.seenAt >= prev.seenAt) latest.set(e.id, e);
  }
  if (latest.size === 0) return;
  const known = await repo.tagsByHardwareId(db, [...latest.keys()]);
  counters.unregisteredTags += latest.size - known.length;
  const updates: repo.TagUpdate[] = [];
  const mismatched: number[] = [];
  let foreign = 0;
  for (const tag of known) {
    // Another tenant's tag, or a tag of another store: not this station's to report.
    if (tag.tenant_id !== station.tenant_id || tag.store_id !== station.store_id) {
      foreign++;
      continue;
    }
    const e = latest.get(tag.hardware_id);
    if (!e) continue;
    const rssi = Math.round(e.rssi);
    const route = routeTo(tag, station.id, rssi);
    updates.push({
      id: tag.id,
      stationId: route,
      // The signal belongs to the station the tag is routed to (the hysteresis compares it).
      signal: route === station.id ? rssi : (tag.signal ?? rssi),
      battery: batteryPercent(e.battMv),
      temperature: e.temp === undefined ? null : Math.round(e.temp),
      hardwareModel: findTagModel(e.hw)?.name ?? e.hw,
      // Age within the report, in the server's clock: immune to the station's clock error.
      lastSeen: Math.min(t, t - Math.max(0, m.at - e.seenAt)),
      wakeS: e.wakeS ?? null,
      wakeSBefore: tag.wake_s,
      desiredBefore: tag.desired_hash,
      statusBefore: tag.status,
      shownVer: e.ver,
      fw: e.fw ?? null,
      stationChanged: route !== tag.station_id,
    });
    // Only a tag that reports another picture than it should show can need its work re-opened.
    if (tag.desired_hash !== null && tag.desired_hash.slice(0, 16) !== (e.ver ?? '')) mismatched.push(tag.id);
  }
  if (foreign > 0) core.drop(id, 'foreignTag', foreign);
  if (updates.length === 0) return;
  const th = await repo.thresholdsOfStore(db, station.store_id);
  await repo.storeTagReport(db, { tenantId: station.tenant_id, storeId: station.store_id }, updates, t, th);
  counters.tagEntries += updates.length;
  core.notices.broadcast(station.tenant_id, {
    type: 'tag.changed',
    storeId: station.store_id,
    ids: updates.map((u) => u.id),
  });
  for (const c of inOrder(core.consumers, NEWS_ORDER)) {
    await c.onTagsReported?.(mismatched);
    await c.onTags?.(station, m);
  }
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
