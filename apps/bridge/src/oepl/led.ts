import type { LedColour, LedPattern } from '@esl/contract/protocol';

/** Our LED colours as RGB332 (3 bits red, 3 green, 2 blue). */
const RGB332: Record<LedColour, number> = {
  red: 0xe0,
  green: 0x1c,
  blue: 0x03,
  yellow: 0xfc,
  cyan: 0x1f,
  magenta: 0xe3,
  white: 0xff,
};

/**
 * Our LED pattern as the AP's 12-byte `/led_flash` pattern (24 hex digits), as the interface is
 * documented: byte 0 mode (high nibble, 1 = flash) and a duration (low nibble); three phases of
 * [RGB332 colour, flash count (high nibble) and speed (low nibble, 100 ms units), delay after the
 * phase (100 ms units)]; byte 10 the repeats; byte 11 zero. Our pattern is the first phase; the
 * other two stay dark. Counts above 15 and times beyond the fields are clamped.
 */
export function ledPattern(p: LedPattern): string {
  const units = (ms: number, max: number) => Math.max(0, Math.min(max, Math.round(ms / 100)));
  const bytes = new Uint8Array(12);
  bytes[0] = 0x10 | units(p.onMs + p.offMs, 15);
  bytes[1] = RGB332[p.colour];
  bytes[2] = (Math.min(15, p.count) << 4) | Math.max(1, units(p.onMs, 15));
  bytes[3] = units(p.offMs, 255);
  bytes[10] = Math.min(255, p.repeat);
  return Buffer.from(bytes).toString('hex').toUpperCase();
}
