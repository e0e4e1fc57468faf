import { describe, expect, it } from 'vitest';
import {
  CUSTOM_FIELDS_MAX,
  CUSTOM_KEY_CHARS,
  CUSTOM_KEY_PATTERN,
  CUSTOM_VALUE_CHARS,
  CustomFields,
  PRICE_CHARS,
  PRICE_PATTERN,
} from './products';
import { HOST_NAME_CHARS, StationConfigFields, UPGRADE_URL_CHARS } from './stations';

// The console's forms take these limits from the contract; the patterns are built from them.
describe('product limits', () => {
  it('keeps the price and custom key patterns as they were', () => {
    expect(PRICE_PATTERN.source).toBe(String.raw`^\d{1,10}(\.\d{1,2})?$`);
    expect(CUSTOM_KEY_PATTERN.source).toBe('^[A-Za-z][A-Za-z0-9_]{0,31}$');
  });

  it('takes a price of PRICE_CHARS characters and no longer', () => {
    expect(PRICE_CHARS).toBe(13);
    expect(PRICE_PATTERN.test('1234567890.12')).toBe(true);
    expect(PRICE_PATTERN.test('12345678901.12')).toBe(false);
  });

  it('takes custom keys of CUSTOM_KEY_CHARS characters and no longer', () => {
    expect(CUSTOM_KEY_PATTERN.test(`k${'x'.repeat(CUSTOM_KEY_CHARS - 1)}`)).toBe(true);
    expect(CUSTOM_KEY_PATTERN.test(`k${'x'.repeat(CUSTOM_KEY_CHARS)}`)).toBe(false);
  });

  it('takes CUSTOM_FIELDS_MAX custom fields of CUSTOM_VALUE_CHARS characters', () => {
    const fields = (n: number, chars = 1) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v'.repeat(chars)]));
    expect(CustomFields.safeParse(fields(CUSTOM_FIELDS_MAX, CUSTOM_VALUE_CHARS)).success).toBe(true);
    expect(CustomFields.safeParse(fields(CUSTOM_FIELDS_MAX + 1)).success).toBe(false);
    expect(CustomFields.safeParse(fields(1, CUSTOM_VALUE_CHARS + 1)).success).toBe(false);
  });
});

describe('station limits', () => {
  it('takes a server host of HOST_NAME_CHARS characters and an upgrade URL of UPGRADE_URL_CHARS', () => {
    const config = (c: Record<string, unknown>) => StationConfigFields.safeParse(c).success;
    expect(config({ serverHost: 'h'.repeat(HOST_NAME_CHARS) })).toBe(true);
    expect(config({ serverHost: 'h'.repeat(HOST_NAME_CHARS + 1) })).toBe(false);
    const url = 'https://example.com/';
    expect(config({ upgradeUrl: url + 'a'.repeat(UPGRADE_URL_CHARS - url.length) })).toBe(true);
    expect(config({ upgradeUrl: url + 'a'.repeat(UPGRADE_URL_CHARS - url.length + 1) })).toBe(false);
  });
});
