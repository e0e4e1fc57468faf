import { describe, expect, test } from 'vitest';
import { designSize, TEMPLATE_VERSION, TemplateDocument } from './document';
import { migrate, TemplateError } from './migrate';

const current = {
  version: TEMPLATE_VERSION,
  size: { model: '0a', w: 296, h: 152 },
  colourType: 'bwr',
  elements: [{ type: 'text', id: 'name', x: 4, y: 4, w: 200, h: 30, binding: { key: 'name' } }],
};

describe('template document', () => {
  test('defaults fill what an editor leaves out; elements are frozen plain objects', () => {
    const doc = TemplateDocument.parse(current);
    expect(doc.size.model).toBe('0A');
    expect(doc.rotation).toBe(0);
    expect(doc.dither).toBe('none');
    const [text] = doc.elements;
    expect(text).toMatchObject({ type: 'text', colour: 'black', fill: null, fit: 'shrink', lines: 1 });
    expect(text.font).toEqual({ family: 'Noto Sans SC', size: 16, weight: 'normal' });
    expect(text.binding).toEqual({ key: 'name', format: 'plain', prefix: '', suffix: '' });
    expect(Object.isFrozen(text)).toBe(true);
  });

  test('rotation by a quarter turn swaps the design size', () => {
    expect(designSize({ size: { model: null, w: 296, h: 152 }, rotation: 90 })).toEqual({ w: 152, h: 296 });
    expect(designSize({ size: { model: null, w: 296, h: 152 }, rotation: 180 })).toEqual({ w: 296, h: 152 });
  });

  test('bad data keys are refused', () => {
    const bad = { ...current, elements: [{ ...current.elements[0], binding: { key: 'na me' } }] };
    expect(TemplateDocument.safeParse(bad).success).toBe(false);
  });
});

describe('migrate', () => {
  test('a current document loads unchanged, with no repairs', () => {
    const { doc, from, repairs } = migrate(current);
    expect(from).toBe(TEMPLATE_VERSION);
    expect(repairs).toEqual([]);
    expect(doc).toEqual(TemplateDocument.parse(current));
    expect(migrate(JSON.parse(JSON.stringify(doc))).doc).toEqual(doc);
  });

  test('version 1 (width, length, depth code) is upgraded', () => {
    const { doc, from } = migrate({ version: 1, width: 250, length: 122, rgb: 4, elements: [] });
    expect(from).toBe(1);
    expect(doc.version).toBe(TEMPLATE_VERSION);
    expect(doc.size).toEqual({ model: null, w: 250, h: 122 });
    expect(doc.colourType).toBe('bwry');
    // No version at all is the first one.
    expect(migrate({ width: 200, length: 200, rgb: 2 }).doc.colourType).toBe('bw');
  });

  test('broken parts are repaired and reported', () => {
    const { doc, repairs } = migrate({
      ...current,
      dither: 'sparkle',
      elements: [
        { type: 'text', id: 'a', x: 0, y: 0, w: 10, h: 10, align: 'sideways', colour: 'yellow' },
        { type: 'star', id: 'b', x: 0, y: 0, w: 10, h: 10 },
        'nonsense',
        { type: 'rect', id: 'a', x: 0, y: 0, w: 10, h: 10 },
        { type: 'line', x: 0, y: 0, w: 10, h: 0 },
        { type: 'price', id: 'p', x: 0, y: 'top', w: 10, h: 10 },
      ],
    });
    expect(doc.dither).toBe('none');
    expect(doc.elements.map((e) => [e.id, e.type])).toEqual([
      ['a', 'text'],
      ['rect-4', 'rect'],
      ['line-5', 'line'],
    ]);
    // Yellow is not on a black/white/red tag: the nearest ink that is not white.
    expect(doc.elements[0]).toMatchObject({ align: 'left', colour: 'red' });
    expect(repairs).toHaveLength(8);
    expect(repairs.join('\n')).toMatch(/unknown type "star"/);
    expect(repairs.join('\n')).toMatch(/element 6 \(p\) is invalid and was dropped: y/);
  });

  test('the NFC binding loads with its type defaulted; a broken one is dropped and said', () => {
    const kept = migrate({ ...current, nfc: { key: 'qrcode' } });
    expect(kept.doc.nfc).toEqual({ key: 'qrcode', type: 'uri' });
    expect(kept.repairs).toEqual([]);
    expect(migrate({ ...current, nfc: { key: 'note', type: 'text' } }).doc.nfc).toEqual({ key: 'note', type: 'text' });
    const broken = migrate({ ...current, nfc: { key: 'qr code', type: 'tel' } });
    expect(broken.doc.nfc).toBeUndefined();
    expect(broken.repairs.join('\n')).toMatch(/^nfc .* reset/);
    expect(migrate(current).doc.nfc).toBeUndefined();
  });

  test('what cannot be loaded is refused with a TemplateError', () => {
    expect(() => migrate('text')).toThrow(TemplateError);
    expect(() => migrate({ ...current, version: TEMPLATE_VERSION + 1 })).toThrow(/newer/);
    expect(() => migrate({ ...current, version: 'two' })).toThrow(/unknown template version/);
    expect(() => migrate({ ...current, size: { w: 0, h: 10 } })).toThrow(/size/);
  });
});
