import type { LearnedTagModel } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { themeColours, themeFor } from '../../platform/theme';
import { modelHasNfc, STATUS_COLOURS } from './display';

describe('tag status colours', () => {
  it('do not follow the theme colour', () => {
    // The theme colour is antd's primary and info colour; 'processing' tags are drawn in it.
    const { token } = themeFor('default', '#f5222d');
    expect(token?.colorInfo).toBe(themeColours('#f5222d').primary);
    for (const [status, colour] of Object.entries(STATUS_COLOURS)) {
      expect(['processing', '#f5222d', themeColours('#f5222d').primary], status).not.toContain(colour);
    }
  });
});

describe('a model’s NFC mark', () => {
  const learned = (nfc: boolean): LearnedTagModel => ({
    key: 'oepl-35',
    name: 'Lite 2.2',
    w: 232,
    h: 104,
    colours: ['white', 'black', 'red'],
    colourType: 'bwr',
    rotate: 0,
    led: true,
    button: false,
    nfc,
    source: 'shop AP, tag type 35 v1',
    stationSn: 'AP1',
    updatedAt: 0,
  });

  it('follows the catalogue: a shelf-edge size has NFC, a display-size panel has not', () => {
    expect(modelHasNfc('05')).toBe(true);
    expect(modelHasNfc('0a')).toBe(true);
    expect(modelHasNfc('2C')).toBe(false);
  });

  it('follows what the station said of a learned model, and is off for a model nobody described', () => {
    expect(modelHasNfc('oepl-35', learned(true))).toBe(true);
    expect(modelHasNfc('oepl-35', learned(false))).toBe(false);
    expect(modelHasNfc('oepl-36', learned(true))).toBe(false);
    expect(modelHasNfc('oepl-35', null)).toBe(false);
  });
});
