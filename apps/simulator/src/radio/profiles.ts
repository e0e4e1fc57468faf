import type { RadioProfileName } from '@esl/contract/protocol';

/**
 * Radio profiles of DELIVERY.md §7: how many bytes each frame costs on air and what a transfer
 * does besides sending its image. Frame = PHY + MAC/addressing + part header + payload + FCS,
 * then an inter-frame space. A transfer is four control frames (check-in, data info, transfer
 * complete, its ack), one block request per block, the station's block preparation, and the parts.
 */
export interface RadioProfile {
  readonly name: RadioProfileName;
  readonly kbps: number;
  readonly phyBytes: number;
  readonly macBytes: number;
  readonly partHeaderBytes: number;
  readonly fcsBytes: number;
  /** Image bytes per part frame. */
  readonly partBytes: number;
  /** Payload of a control frame (check-in, info, block request, complete, ack). */
  readonly ctrlBytes: number;
  /** Inter-frame space or turnaround, ms. */
  readonly ifsMs: number;
  /** Bytes per block; the last part of a block carries only what is left of it. */
  readonly blockBytes: number;
  /** Station time to prepare a block (OEPL's "please wait" while it buffers one), ms. */
  readonly blockPrepMs: number;
  /** Control frames per transfer, block requests aside. */
  readonly ctrlFrames: number;
  /** Frames per block besides its parts. */
  readonly blockFrames: number;
  /** Channels a station may use. */
  readonly channels: readonly number[];
  /** Receiver sensitivity, dBm: the middle of the frame-error curve. */
  readonly sensitivityDbm: number;
  /** Path loss at 1 m, dB (free space at the band's frequency). */
  readonly pathLoss1mDb: number;
}

const common = { partHeaderBytes: 4, ctrlBytes: 15, blockBytes: 4096, blockPrepMs: 30, ctrlFrames: 4, blockFrames: 1 };

export const PROFILES: Record<RadioProfileName, RadioProfile> = {
  // IEEE 802.15.4 O-QPSK at 2.4 GHz: 6 B PHY (preamble, SFD, length), 21 B MAC, 2 B FCS, LIFS of
  // 40 symbols (640 µs); OEPL's 99-byte parts in 4,096-byte blocks; 16 channels (11–26).
  'oepl-2g4': {
    ...common,
    name: 'oepl-2g4',
    kbps: 250,
    phyBytes: 6,
    macBytes: 21,
    fcsBytes: 2,
    partBytes: 99,
    ifsMs: 0.64,
    channels: [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26],
    sensitivityDbm: -100,
    pathLoss1mDb: 40,
  },
  // 2-FSK sub-GHz: 11 B PHY, 8 B addressing, 56-byte parts, 1 ms turnaround.
  'subghz-50k': {
    ...common,
    name: 'subghz-50k',
    kbps: 50,
    phyBytes: 11,
    macBytes: 8,
    fcsBytes: 0,
    partBytes: 56,
    ifsMs: 1,
    channels: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    sensitivityDbm: -108,
    pathLoss1mDb: 31,
  },
  'subghz-100k': {
    ...common,
    name: 'subghz-100k',
    kbps: 100,
    phyBytes: 11,
    macBytes: 8,
    fcsBytes: 0,
    partBytes: 56,
    ifsMs: 1,
    channels: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    sensitivityDbm: -105,
    pathLoss1mDb: 31,
  },
};

export function profileByName(name: string): RadioProfile {
  const p = (PROFILES as Record<string, RadioProfile | undefined>)[name];
  if (!p) throw new RangeError(`unknown radio profile ${name} (known: ${Object.keys(PROFILES).join(', ')})`);
  return p;
}
