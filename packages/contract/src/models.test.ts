import { describe, expect, it } from 'vitest';
import { COLOUR_SETS, findTagModel, TAG_MODELS, TagModel } from './models';
import { PANEL_INKS } from './protocol/codes';

describe('tag-model catalogue', () => {
  it('has every code from 01 to 44 (hex) exactly once, in order', () => {
    const expected = Array.from({ length: 0x44 }, (_, i) => (i + 1).toString(16).toUpperCase().padStart(2, '0'));
    expect(TAG_MODELS.map((m) => m.code)).toEqual(expected);
  });

  it('keeps the eight rows SPEC.md gives exactly as given', () => {
    const given = TAG_MODELS.filter((m) => m.given).map((m) => [m.code, m.name, `${m.w}x${m.h}`]);
    expect(given).toEqual([
      ['01', '1.54T', '200x200'],
      ['05', '2.13L', '250x122'],
      ['0A', '2.66L', '296x152'],
      ['1C', '4.20T', '400x300'],
      ['28', '7.50T', '800x480'],
      ['2C', '10.20T', '960x640'],
      ['30', '12.50T', '1304x984'],
      ['44', '2.90FH', '384x168'],
    ]);
  });

  it('validates every row and spans 1.54 to 13.30 inches', () => {
    for (const m of TAG_MODELS) expect(TagModel.parse(m)).toEqual(m);
    const inches = TAG_MODELS.map((m) => m.inches);
    expect(Math.min(...inches)).toBe(1.54);
    expect(Math.max(...inches)).toBe(13.3);
  });

  it('pads every row to a whole number of bytes', () => {
    for (const m of TAG_MODELS) expect((m.w + m.wext) % 8).toBe(0);
    expect(findTagModel('05')).toMatchObject({ wext: 6, hexit: 6 });
  });

  it('has unique names and uses only the colour depth codes of SPEC.md', () => {
    expect(new Set(TAG_MODELS.map((m) => m.name)).size).toBe(TAG_MODELS.length);
    for (const m of TAG_MODELS) expect([2, 3, 4, 7, 99]).toContain(m.rgb);
  });

  it('gives the shelf-edge sizes NFC, up to 7.5 inches, and not the display-size panels', () => {
    const withNfc = TAG_MODELS.filter((m) => m.nfc);
    expect(withNfc.length).toBeGreaterThan(0);
    for (const m of TAG_MODELS) expect(m.nfc).toBe(m.inches <= 7.5);
    expect(findTagModel('05')?.nfc).toBe(true);
    expect(findTagModel('28')?.nfc).toBe(true);
    expect(findTagModel('2A')?.nfc).toBe(false);
    expect(findTagModel('30')?.nfc).toBe(false);
  });

  it('finds a model by its code in either case', () => {
    expect(findTagModel('0a')?.name).toBe('2.66L');
    expect(findTagModel('45')).toBeUndefined();
  });
});

describe('the protocol’s panel inks', () => {
  it('are the labels model’s colour sets, in the same order', () => {
    expect(PANEL_INKS).toEqual(COLOUR_SETS);
  });
});
