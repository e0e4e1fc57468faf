import type { TagEntry, WakeReason } from '@esl/contract/protocol';
import type { TypeMapping } from './models';
import { LOW_BATTERY_MV, NEVER, type OeplTag } from './types';

/** OEPL wake reasons → ours (button and NFC wake-ups are the events the server sees). */
export function wakeReason(code: number): WakeReason {
  switch (code) {
    case 1:
    case 0xfc:
      return 'boot';
    case 2:
    case 4:
    case 5:
    case 6:
      return 'button';
    case 3:
      return 'nfc';
    case 0xfd:
      return 'rescan';
    case 0xfe:
      return 'watchdog';
    default:
      return 'timer';
  }
}

export const lowBattery = (mv: number) => mv > 0 && mv < LOW_BATTERY_MV;

/**
 * Our tag report entry for an AP record: signal, battery, temperature, when it was last seen (AP
 * time corrected to server time), why it woke, and the version of our image it shows when the
 * bridge saw it confirmed. `hw` is the catalogue model's code, or the key of the learned model the
 * bridge described in `up/models`. Null while the tag's type is not read yet.
 */
export function tagEntry(
  rec: OeplTag,
  mapping: TypeMapping | undefined,
  ver: string | null,
  apToServerMs: number,
): TagEntry | null {
  const hw = mapping?.model?.code ?? mapping?.learned?.key;
  if (!hw) return null;
  return {
    id: rec.mac,
    rssi: Math.max(-150, Math.min(30, rec.RSSI)),
    lqi: Math.max(0, Math.min(255, rec.LQI)),
    battMv: Math.max(0, Math.min(10_000, rec.batteryMv)),
    temp: Math.max(-60, Math.min(125, rec.temperature)),
    ver,
    hw,
    ...(rec.ver !== undefined ? { fw: String(rec.ver) } : {}),
    ...wakeS(rec),
    seenAt: Math.max(0, rec.lastseen * 1000 + apToServerMs),
    reason: wakeReason(rec.wakeupReason),
  };
}

/** The interval the AP gave the tag, s: its next check-in minus its last (none in deep sleep). */
function wakeS(rec: OeplTag): { wakeS?: number } {
  const s = rec.nextcheckin - rec.lastseen;
  return rec.nextcheckin < NEVER && s >= 1 && s <= 7 * 86_400 ? { wakeS: Math.round(s) } : {};
}
