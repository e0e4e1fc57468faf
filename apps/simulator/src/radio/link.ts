import type { Random } from '../random';
import { frameMs, partSizes } from './bound';
import type { RadioProfile } from './profiles';

/*
 * What one station↔tag exchange costs when frames get lost (DELIVERY.md §7, simulator only; the
 * bound assumes no loss). Lost parts are re-requested by bitmap, so a lost part costs one part and
 * a block request, not the block; a lost control frame is sent again.
 */

/** Received signal at `distanceM` with log-distance path loss (exponent 3 indoors) and shadowing. */
export function rssiAt(p: RadioProfile, distanceM: number, shadowDb: number, txDbm = 0): number {
  const d = Math.max(1, distanceM);
  return txDbm - (p.pathLoss1mDb + 30 * Math.log10(d)) + shadowDb;
}

/** Frame error rate at a signal level: a logistic curve around the sensitivity, plus `extra` loss. */
export function frameErrorRate(p: RadioProfile, rssiDbm: number, extra = 0): number {
  const byRssi = 1 / (1 + Math.exp((rssiDbm - p.sensitivityDbm) / 1.5));
  return 1 - (1 - byRssi) * (1 - extra);
}

export interface Exchange {
  readonly ok: boolean;
  readonly airMs: number;
  /** Frames sent (by either side) and frames lost. */
  readonly frames: number;
  readonly lost: number;
  /** Block rounds beyond the first (re-requests). */
  readonly retries: number;
}

/** A tag's check-in and the station's answer; lost when either frame is. */
export function checkIn(p: RadioProfile, per: number, rng: Random): Exchange {
  const ms = 2 * frameMs(p, p.ctrlBytes);
  const lost = (rng.chance(per) ? 1 : 0) + (rng.chance(per) ? 1 : 0);
  return { ok: lost === 0, airMs: ms, frames: 2, lost, retries: 0 };
}

/** Control frames retried this often before the transfer is given up. */
const CTRL_TRIES = 3;
/** Rounds per block (the first and re-requests), like OEPL tags trying a block 5 times. */
const BLOCK_TRIES = 5;

/**
 * The rest of an image transfer after a successful check-in (answered with the data info): blocks
 * with bitmap re-requests, transfer complete and its ack. With `per` 0 its airtime plus the check-in equals
 * `serviceMs` exactly.
 */
export function transferImage(p: RadioProfile, size: number, per: number, rng: Random): Exchange {
  const ctrl = frameMs(p, p.ctrlBytes);
  let airMs = 0;
  let frames = 0;
  let lost = 0;
  let retries = 0;
  const control = (): boolean => {
    for (let i = 0; i < CTRL_TRIES; i++) {
      airMs += ctrl;
      frames++;
      if (!rng.chance(per)) return true;
      lost++;
    }
    return false;
  };
  const done = (ok: boolean): Exchange => ({ ok, airMs, frames, lost, retries });
  // The check-in and the station's data info that answers it are accounted by checkIn().
  for (const parts of partSizes(p, size)) {
    let missing = parts;
    for (let round = 0; missing.length > 0; round++) {
      if (round >= BLOCK_TRIES) return done(false);
      if (round > 0) retries++;
      for (let f = 0; f < p.blockFrames; f++) if (!control()) return done(false);
      airMs += p.blockPrepMs;
      const still: number[] = [];
      for (const bytes of missing) {
        airMs += frameMs(p, bytes);
        frames++;
        if (rng.chance(per)) {
          lost++;
          still.push(bytes);
        }
      }
      missing = still;
    }
  }
  for (let f = 2; f < p.ctrlFrames; f++) if (!control()) return done(false); // complete, ack
  return done(true);
}

/** A short command (LED, ping, config): one request and its ack after a check-in. */
export function command(p: RadioProfile, per: number, rng: Random): Exchange {
  const ctrl = frameMs(p, p.ctrlBytes);
  let airMs = 0;
  let lost = 0;
  for (let i = 0; i < CTRL_TRIES; i++) {
    airMs += 2 * ctrl;
    if (!rng.chance(per) && !rng.chance(per)) return { ok: true, airMs, frames: 2 * (i + 1), lost, retries: i };
    lost++;
  }
  return { ok: false, airMs, frames: 2 * CTRL_TRIES, lost, retries: CTRL_TRIES - 1 };
}
