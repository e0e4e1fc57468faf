import type { RadioProfile } from './profiles';

/*
 * The radio lower bound of DELIVERY.md §7: the least airtime any scheduler needs for a set of
 * image jobs, with no loss. The simulator and the bench report efficiency as bound / measured.
 */

/** Airtime of one frame carrying `payload` bytes (plus the profile's overheads), ms. */
export function frameMs(p: RadioProfile, payload: number): number {
  const bytes = p.phyBytes + p.macBytes + p.partHeaderBytes + payload + p.fcsBytes;
  return (bytes * 8) / p.kbps + p.ifsMs;
}

/** One idle check-in: the tag's request and the station's "nothing for you", ms. */
export function checkInMs(p: RadioProfile): number {
  return 2 * frameMs(p, p.ctrlBytes);
}

/** Parts of an image of `size` bytes: [payload bytes per part], block by block. */
export function partSizes(p: RadioProfile, size: number): number[][] {
  const blocks: number[][] = [];
  for (let offset = 0; offset < size; offset += p.blockBytes) {
    const block = Math.min(p.blockBytes, size - offset);
    const parts: number[] = [];
    for (let o = 0; o < block; o += p.partBytes) parts.push(Math.min(p.partBytes, block - o));
    blocks.push(parts);
  }
  return blocks;
}

/** Service time S(size): airtime and preparation to transfer one image to a tag that checked in, ms. */
export function serviceMs(p: RadioProfile, size: number): number {
  const ctrl = frameMs(p, p.ctrlBytes);
  let ms = p.ctrlFrames * ctrl;
  for (const parts of partSizes(p, size)) {
    ms += p.blockFrames * ctrl + p.blockPrepMs;
    for (const bytes of parts) ms += frameMs(p, bytes);
  }
  return ms;
}

export interface ChannelLoad {
  /** Encoded image sizes, one per tag to update on this channel. */
  readonly sizes: readonly number[];
  /** Wake interval of every tag on the channel (updated or not), s. */
  readonly wakeS: readonly number[];
}

export interface ChannelBound {
  /** Share of airtime idle check-ins take. */
  readonly rho: number;
  /** Σ S over the jobs, s. */
  readonly serviceS: number;
  /** Time to the first check-in, s. */
  readonly firstCheckInS: number;
  /** Lower bound on the time to finish, s; Infinity when idle polling alone fills the channel. */
  readonly boundS: number;
}

/**
 * T_ch = Σ S / (1 − ρ/2) + time to the first check-in, with ρ = Σ c / I over the channel's tags
 * (on average half of them are already done and keep polling while the rest are served).
 */
export function channelBound(p: RadioProfile, load: ChannelLoad): ChannelBound {
  const c = checkInMs(p) / 1000;
  const checkInsPerS = load.wakeS.reduce((s, w) => s + 1 / w, 0);
  const rho = c * checkInsPerS;
  const serviceS = load.sizes.reduce((s, size) => s + serviceMs(p, size), 0) / 1000;
  const firstCheckInS = checkInsPerS > 0 ? 1 / checkInsPerS : 0;
  const free = 1 - rho / 2;
  return {
    rho,
    serviceS,
    firstCheckInS,
    boundS: free > 0 ? serviceS / free + firstCheckInS : Number.POSITIVE_INFINITY,
  };
}

/** A store: stations on separate channels work in parallel; the slowest channel bounds it. */
export function storeBound(p: RadioProfile, channels: readonly ChannelLoad[]): number {
  return channels.reduce((m, ch) => Math.max(m, channelBound(p, ch).boundS), 0);
}

/** n tags of one size and one wake interval on one channel. */
export function uniformLoad(n: number, size: number, wakeS: number): ChannelLoad {
  return { sizes: Array(n).fill(size), wakeS: Array(n).fill(wakeS) };
}
