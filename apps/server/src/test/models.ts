import type { LearnedModel } from '@esl/contract/protocol';

/**
 * A tag model a station taught (docs/PROTOCOL.md §5.13): an OpenEPaperLink 2.2" black/white/red.
 * A module of its own, so the browser tests take it without the server's test harness.
 */
export const LEARNED_MODEL: LearnedModel = {
  key: 'oepl-35',
  name: 'Lite 2.2',
  w: 232,
  h: 104,
  colours: ['white', 'black', 'red'],
  colourType: 'bwr',
  rotate: 1,
  led: true,
  button: true,
  nfc: false,
  source: 'shop AP, tag type 35 v2',
};
