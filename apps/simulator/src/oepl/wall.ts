import { COLOUR_SETS, type ColourType, type IndexImage } from '@esl/labels';
import type { WallStation, WallTagSource } from '../wall';
import type { OeplApEmulator } from './ap';
import type { EmuTag } from './tag';

/** The colour type whose inks are the table's names, and each table index's index among those inks. */
function inkOrder(tag: EmuTag): { colourType: ColourType; remap: number[] } | null {
  const names = Object.keys(tag.type.colortable);
  for (const [ct, inks] of Object.entries(COLOUR_SETS) as [ColourType, readonly string[]][]) {
    if (inks.length === names.length && names.every((n) => inks.includes(n))) {
      return { colourType: ct, remap: names.map((n) => inks.indexOf(n)) };
    }
  }
  return null;
}

function wallTag(tag: EmuTag): WallTagSource {
  let cached: { md5: string; image: IndexImage } | null = null;
  return {
    id: tag.mac,
    hw: tag.hwType.toString(16).toUpperCase().padStart(2, '0'),
    get transfers() {
      return tag.updatecount;
    },
    screen() {
      const s = tag.screen;
      const order = inkOrder(tag);
      if (!s || !order) return null;
      if (cached?.md5 !== s.md5) {
        const data = s.indices.map((i) => order.remap[i]);
        cached = { md5: s.md5, image: { width: s.width, height: s.height, colourType: order.colourType, data } };
      }
      return { image: cached.image, ver: s.md5.slice(0, 16) };
    },
  };
}

/**
 * The emulated AP as a station of the store wall (`--http`): every emulated tag's screen as the AP's
 * palette mapping left it, "pending" while an image (or an NFC record) waits at the AP, "sending" while on the air.
 */
export function oeplWallStation(ap: OeplApEmulator, sn = 'OEPL-AP'): WallStation {
  const tags = new Map<string, WallTagSource>();
  const sync = () => {
    for (const t of ap.tags.values()) if (t.servedBy === null && !tags.has(t.mac)) tags.set(t.mac, wallTag(t));
    return tags;
  };
  return {
    key: { tenantId: 0, sn },
    get channel() {
      return Number(ap.config.channel);
    },
    get isConnected() {
      return ap.wsClients > 0;
    },
    get tags() {
      return sync();
    },
    get queue() {
      const q = new Map<string, { job: { kind: string; tag?: string }; running: boolean }>();
      for (const t of ap.tags.values()) {
        if (t.pending === 0) continue;
        const kind = t.queue[0]?.nfc !== undefined ? 'nfc' : 'image';
        q.set(t.mac, { job: { kind, tag: t.mac }, running: ap.transferringMac === t.mac });
      }
      return q;
    },
  };
}
