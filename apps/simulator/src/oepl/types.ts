/*
 * Tag types of the emulated access point, in the documented shape of an OEPL `/tagtypes/XX.json`
 * (../shared/OEPL.md §1.6): written here for the emulator, not taken from OEPL's files. The hwType
 * numbers are the emulator's own.
 */

export interface EmuTagType {
  version: number;
  name: string;
  width: number;
  height: number;
  rotatebuffer: number;
  bpp: number;
  /** Insertion order is the pixel index. */
  colortable: Record<string, [number, number, number]>;
  options: string[];
}

const WHITE: [number, number, number] = [255, 255, 255];
const BLACK: [number, number, number] = [0, 0, 0];
const RED: [number, number, number] = [255, 0, 0];
const YELLOW: [number, number, number] = [255, 255, 0];

const type = (
  name: string,
  width: number,
  height: number,
  colortable: Record<string, [number, number, number]>,
  extra: Partial<EmuTagType> = {},
): EmuTagType => ({
  version: 1,
  name,
  width,
  height,
  rotatebuffer: 1,
  bpp: Object.keys(colortable).length > 2 ? 2 : 1,
  colortable,
  options: ['button', 'led'],
  ...extra,
});

/** hwType → tag type. */
export const EMU_TAG_TYPES: ReadonlyMap<number, EmuTagType> = new Map([
  [0x30, type('Emulated 2.9" BW', 296, 128, { white: WHITE, black: BLACK }, { options: ['button'] })],
  [0x31, type('Emulated 2.9" BWR', 296, 128, { white: WHITE, black: BLACK, red: RED })],
  [0x32, type('Emulated 2.9" BWY', 296, 128, { white: WHITE, black: BLACK, yellow: YELLOW })],
  [0x33, type('Emulated 2.9" BWRY', 296, 128, { white: WHITE, black: BLACK, red: RED, yellow: YELLOW })],
  // A portrait canvas: our 4.2" 400×300 labels reach it turned a quarter.
  [0x34, type('Emulated 4.2" BWR portrait', 300, 400, { white: WHITE, black: BLACK, red: RED }, { rotatebuffer: 3 })],
  // No catalogue model has this size: the bridge learns it.
  [0x35, type('Emulated 1.3" BWR', 144, 200, { white: WHITE, black: BLACK, red: RED })],
]);

/**
 * hwTypes whose tags report the NFC capability bit (0x40) unless a test says otherwise: the
 * emulator's BWR and BWRY 2.9" and the 4.2" portrait. The others have no chip.
 */
export const EMU_NFC_TYPES: ReadonlySet<number> = new Set([0x31, 0x33, 0x34]);

/** Bytes of the raw image a tag of this type is sent (one plane per bit of depth). */
export function rawBytes(t: EmuTagType): number {
  return Math.ceil((t.width * t.height) / 8) * Math.max(1, t.bpp);
}
