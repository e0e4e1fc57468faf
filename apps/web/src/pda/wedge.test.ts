import { describe, expect, it } from 'vitest';
import { asBarcode, asHardwareId, WedgeBuffer } from './wedge';

/** Feeds `text` then Enter, `gap` ms apart from `start`; answers what each key gave. */
function feed(buffer: WedgeBuffer, text: string, gap: number, start = 1000): (string | null)[] {
  const keys = [...text, 'Enter'];
  return keys.map((key, i) => buffer.key(key, start + i * gap));
}

describe('keyboard-wedge scans', () => {
  it('takes fast keystrokes ending with Enter as one scan', () => {
    const buffer = new WedgeBuffer();
    const out = feed(buffer, '6901234567892', 5);
    expect(out.slice(0, -1).every((x) => x === null)).toBe(true);
    expect(out.at(-1)).toBe('6901234567892');
  });

  it('ignores typing: keys a person’s pace apart give nothing on Enter', () => {
    const buffer = new WedgeBuffer();
    expect(feed(buffer, 'A1B2C3D4', 150).at(-1)).toBeNull();
  });

  it('drops what was typed by hand before a scan, and a slow Enter after a scan', () => {
    const buffer = new WedgeBuffer();
    // Two hand-typed keys, then a scanner burst: the scan alone comes out.
    expect(buffer.key('x', 0)).toBeNull();
    expect(buffer.key('y', 300)).toBeNull();
    expect(feed(buffer, 'A1B2C3D4', 4, 600).at(-1)).toBe('A1B2C3D4');
    // A burst whose Enter comes late was not a scanner's.
    const late = new WedgeBuffer();
    for (const [i, key] of [...'A1B2C3D4'].entries()) late.key(key, i * 4);
    expect(late.key('Enter', 500)).toBeNull();
  });

  it('keeps capitals typed with Shift, stops at other keys, and wants a few characters', () => {
    const buffer = new WedgeBuffer();
    const keys = ['Shift', 'A', 'Shift', 'B', '1', '2', 'Enter'];
    expect(keys.map((k, i) => buffer.key(k, i * 3)).at(-1)).toBe('AB12');
    const broken = new WedgeBuffer();
    const withArrow = ['A', 'B', 'ArrowLeft', 'C', 'D', 'Enter'];
    expect(withArrow.map((k, i) => broken.key(k, i * 3)).at(-1)).toBeNull();
    expect(feed(new WedgeBuffer(), 'AB1', 3).at(-1)).toBeNull();
    expect(new WedgeBuffer().key('Enter', 10)).toBeNull();
  });

  it('starts afresh after each scan', () => {
    const buffer = new WedgeBuffer();
    expect(feed(buffer, 'AAAA0001', 3, 0).at(-1)).toBe('AAAA0001');
    expect(feed(buffer, '6900000000001', 3, 40).at(-1)).toBe('6900000000001');
  });

  it('honours its options', () => {
    const buffer = new WedgeBuffer({ maxGapMs: 200, minLength: 2 });
    expect(feed(buffer, 'AB', 150).at(-1)).toBe('AB');
  });
});

describe('what a scan names', () => {
  it('reads hardware IDs as 8–16 hex digits, upper case', () => {
    expect(asHardwareId(' a1b2c3d4 ')).toBe('A1B2C3D4');
    expect(asHardwareId('00112233AABBCCDD')).toBe('00112233AABBCCDD');
    expect(asHardwareId('A1B2C3')).toBeNull();
    expect(asHardwareId('XYZ12345')).toBeNull();
    expect(asHardwareId('00112233AABBCCDD0')).toBeNull();
  });

  it('reads barcodes as printable text of 1–64 characters', () => {
    expect(asBarcode(' 6901234567892 ')).toBe('6901234567892');
    expect(asBarcode('')).toBeNull();
    expect(asBarcode('x'.repeat(65))).toBeNull();
    expect(asBarcode('69\u000112')).toBeNull();
  });
});
