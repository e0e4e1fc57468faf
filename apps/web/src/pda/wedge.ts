/**
 * A barcode scanner in keyboard-wedge mode types the code as keystrokes a few milliseconds apart
 * and ends it with Enter; a person types far slower. The handheld page listens to keys typed
 * outside its text fields and takes a fast burst ending with Enter as a scan, so a clerk scans
 * without first tapping a field (which would also open the phone's keyboard).
 */
export interface WedgeOptions {
  /** The longest pause between two keys of one scan, ms (scanners: 1–20 ms; people: 80 ms and more). */
  maxGapMs?: number;
  /** The shortest code taken as a scan. */
  minLength?: number;
}

export const WEDGE_MAX_GAP_MS = 50;
export const WEDGE_MIN_LENGTH = 4;

export class WedgeBuffer {
  private chars = '';
  private last = Number.NEGATIVE_INFINITY;
  private readonly maxGapMs: number;
  private readonly minLength: number;

  constructor(options: WedgeOptions = {}) {
    this.maxGapMs = options.maxGapMs ?? WEDGE_MAX_GAP_MS;
    this.minLength = options.minLength ?? WEDGE_MIN_LENGTH;
  }

  /**
   * Feeds one key (KeyboardEvent.key) pressed at `time` (ms, e.g. event.timeStamp). Answers the
   * scanned code when this key is the Enter that ends a scan, else null.
   */
  key(key: string, time: number): string | null {
    const gap = time - this.last;
    if (key === 'Enter') {
      const code = this.chars;
      const fast = gap <= this.maxGapMs;
      this.reset();
      return fast && code.length >= this.minLength ? code : null;
    }
    // Shift (capitals), Control and the like come with the characters; they end nothing.
    if (MODIFIERS.has(key)) return null;
    if (key.length !== 1) {
      this.reset();
      return null;
    }
    // A pause longer than a scanner makes starts over: what came before was typed by hand.
    if (gap > this.maxGapMs) this.chars = '';
    this.chars += key;
    this.last = time;
    return null;
  }

  reset(): void {
    this.chars = '';
    this.last = Number.NEGATIVE_INFINITY;
  }
}

const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'AltGraph']);

/** A tag's hardware ID as printed on it and in its barcode: 8 to 16 hex digits, answered upper case. */
export function asHardwareId(code: string): string | null {
  const text = code.trim();
  return /^[0-9A-Fa-f]{8,16}$/.test(text) ? text.toUpperCase() : null;
}

/** A product barcode as scanned: printable, 1–64 characters. */
export function asBarcode(code: string): string | null {
  const text = code.trim();
  const printable = [...text].every((c) => c.charCodeAt(0) >= 0x20);
  return text.length >= 1 && text.length <= 64 && printable ? text : null;
}
