import { describe, expect, test, vi } from 'vitest';
import { doc, PRODUCT, priceLabel } from '../test/fixtures';
import type { FontFile } from './font';
import { LEGIBLE_PX, tinyTexts } from './legible';
import { FONT_FAMILY } from './model/document';
import { loadScriptFonts, loadShaper, registerFonts, renderToPng } from './node';
import { FontLibrary, SoftCanvas } from './raster';
import { FALLBACK_ORDER, needsGlyph, preferredFamilies, SCRIPT_FONTS, scriptFontsFor } from './scripts';
import { bidiRuns, needsShaping, type Shaper, shapeLine } from './shape';
import { cssFont } from './text';

const visual = (text: string) => bidiRuns(text).map((r) => `${r.rtl ? 'R' : 'L'}:${r.text}`);

describe('bidirectional runs', () => {
  test('left-to-right text is one run', () => {
    expect(visual('Milk 3% 1 L')).toEqual(['L:Milk 3% 1 L']);
  });

  test('Hebrew reads right to left, its numbers left to right inside it', () => {
    // Logical: חלב טרי 3% 1 ליטר → visual, left to right: ליטר, 1, 3%, טרי חלב (R runs keep
    // logical order here: the shaper lays each out right to left).
    expect(visual('חלב טרי 3% 1 ליטר')).toEqual(['R: ליטר', 'L:1', 'R: ', 'L:3%', 'R:חלב טרי ']);
  });

  test('Latin inside Arabic stays in order, a number after it joins it; the ellipsis ends the line (left)', () => {
    expect(visual('حليب ABC 12…')).toEqual(['R:…', 'L:ABC 12', 'R:حليب ']);
    expect(visual('حليب 2 لتر…')).toEqual(['R: لتر…', 'L:2', 'R:حليب ']);
  });

  test('Hebrew inside a Latin line is reversed in place; a number after it belongs to it', () => {
    // As browsers show it: "Brand 2 גבא".
    expect(visual('Brand אבג 2')).toEqual(['L:Brand ', 'L:2', 'R:אבג ']);
    expect(visual('Brand אבג x')).toEqual(['L:Brand ', 'R:אבג', 'L: x']);
  });

  test('explicit embeddings, overrides and isolates (UAX #9 X1–X10); the controls are not drawn', () => {
    const [LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI] = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ];
    // A Latin product code in a Hebrew name: without the isolate its number would land right of its letters.
    expect(visual('קוד 123 ABC מבצע')).toEqual(['R: מבצע', 'L:ABC', 'R: ', 'L:123', 'R:קוד ']);
    expect(visual(`קוד ${LRI}123 ABC${PDI} מבצע`)).toEqual(['R: מבצע', 'L:123 ABC', 'R:קוד ']);
    // An isolate is a neutral of the text around it: the number after it is the Latin text's.
    expect(visual(`Brand ${RLI}אבג${PDI} 2`)).toEqual(['L:Brand ', 'R:אבג', 'L: 2']);
    // FSI takes the direction of its first strong letter: right to left here, left to right there.
    expect(visual(`Sale ${FSI}אבג ABC${PDI}`)).toEqual(['L:Sale ', 'L:ABC', 'R:אבג ']);
    expect(visual(`Sale ${FSI}ABC אבג${PDI}`)).toEqual(['L:Sale ', 'L:ABC ', 'R:אבג']);
    // Overrides: Latin drawn right to left (the shaper reverses the run), Hebrew left to right.
    expect(visual(`abc ${RLO}def${PDF} ghi`)).toEqual(['L:abc ', 'R:def', 'L: ghi']);
    expect(visual(`חלב ${LRO}אבג${PDF}`)).toEqual(['L:אבג', 'R:חלב ']);
    // An embedding: numbers in a right-to-left embedding read right to left one after the other.
    expect(visual(`x ${RLE}1 2${PDF} y`)).toEqual(['L:x ', 'L:2', 'R: ', 'L:1', 'L: y']);
    expect(visual(`x ${LRE}1 2${PDF} y`)).toEqual(['L:x 1 2 y']);
  });

  test('unmatched PDF and PDI do nothing and are not drawn; an isolate left open runs to the end', () => {
    expect(visual('abc\u202c def\u2069 אבג')).toEqual(visual('abc def אבג'));
    expect(visual('abc\u202c def\u2069 אבג')).toEqual(['L:abc def ', 'R:אבג']);
    expect(visual('Brand \u2067אבג x')).toEqual(['L:Brand ', 'L:x', 'R:אבג ']);
    expect(visual('\u2069abc\u202c')).toEqual(['L:abc']);
  });

  test('embeddings deeper than 125 levels are ignored, and so is the PDF that closes one', () => {
    // 62 RLE and an LRE reach level 124, an RLE 125; the LRE after it would be 126: it overflows,
    // so its PDF closes nothing and "גד" stays at 125 with "אב" (one run, not two).
    const deep = `${'\u202b'.repeat(62)}\u202ax\u202b\u202aאב\u202cגד\u202cy`;
    expect(visual(deep)).toEqual(['L:x', 'R:אבגד', 'L:y']);
  });

  test('which texts need the shaper', () => {
    // Han, Hangul syllables, digits, spaces and the punctuation of prices: HarfBuzz draws them as the plain path.
    for (const text of ['新疆阿克苏 500', '농심 신라면', '¥12.50', '苹果（特级）、3%', '1,299.00 €', ''])
      expect(needsShaping(text)).toBe(false);
    // Latin (kerning, ligatures), kana (kerned before full-width punctuation), "——" (a ligature),
    // ideographs beyond the BMP, complex scripts.
    for (const text of [
      '新疆阿克苏 500g',
      'AV',
      'お茶、',
      '——',
      '\u{20000}',
      'Γάλα',
      'ข้าว',
      'حليب',
      'חלב',
      'हिन्दी',
      'e\u0301',
    ])
      expect(needsShaping(text)).toBe(true);
  });
});

describe('shaping Latin and CJK', () => {
  /** The same faces with and without the shaper. */
  async function canvases(): Promise<[SoftCanvas, SoftCanvas]> {
    await loadShaper();
    const shaped = registerFonts();
    const faces = [false, true].map((bold) => ({
      family: 'Noto Sans SC',
      weight: bold ? 700 : 400,
      font: shaped.face('Noto Sans SC', bold) as FontFile,
    }));
    const plain = new SoftCanvas(200, 60, new FontLibrary(faces));
    const withShaper = new SoftCanvas(200, 60, shaped);
    for (const c of [plain, withShaper]) c.font = '40px "Noto Sans SC"';
    return [plain, withShaper];
  }

  test('Latin is kerned and ligated by HarfBuzz ("AV", "To" closer; "fi" one glyph)', async () => {
    const [plain, shaped] = await canvases();
    for (const text of ['AV', 'To', 'Wa']) {
      // Kerned by 18 (AV), 85 (To) and 52 (Wa) units of 1000: 0.7 to 3.4 pixels at 40 px.
      expect(shaped.measureText(text).width, text).toBeLessThan(plain.measureText(text).width - 0.5);
    }
    const face = registerFonts().face('Noto Sans SC', false) as FontFile;
    const shaper = registerFonts().shaper;
    expect(shaper?.shape(face, 'fi', false)).toHaveLength(1);
    expect(shaper?.shape(face, 'Hd', false)).toHaveLength(2);
  });

  test('Han, Hangul syllables, digits and price punctuation keep the plain path: HarfBuzz gives the same', async () => {
    const [plain, shaped] = await canvases();
    const shaper = registerFonts().shaper;
    const face = registerFonts().face('Noto Sans SC', true) as FontFile;
    for (const text of ['新疆阿克苏冰糖心苹果（特级大果）', '¥1,299.50', '蒙牛纯牛奶 250×16、3%']) {
      expect(needsShaping(text)).toBe(false);
      const glyphs = shaper?.shape(face, text, false) ?? [];
      const advances = Array.from(text, (c) => face.glyph(face.glyphIndex(c.codePointAt(0) ?? 0)).advance);
      expect(glyphs.map((g) => g.xAdvance)).toEqual(advances);
      expect(shaped.measureText(text).width).toBe(plain.measureText(text).width);
    }
  });

  test('an override draws its Latin right to left; the explicit bidi controls draw nothing', async () => {
    await loadShaper();
    const face = registerFonts().face('Noto Sans SC', false) as FontFile;
    const shaper = registerFonts().shaper as Shaper;
    const glyphs = (text: string) => shapeLine(shaper, [face], 1, text).glyphs.map((g) => g.glyph);
    const of = (chars: string) => Array.from(chars, (c) => face.glyphIndex(c.codePointAt(0) ?? 0));
    expect(glyphs('x\u202eabc\u202cy')).toEqual(of('xcbay'));
    expect(glyphs('x\u2066abc\u2069y')).toEqual(of('xabcy'));
  });

  test('a line shaped once serves every size (positions scale with the size)', async () => {
    const [, shaped] = await canvases();
    shaped.font = '20px "Noto Sans SC"';
    const small = shaped.measureText('Organic Fuji apples').width;
    shaped.font = '40px "Noto Sans SC"';
    expect(shaped.measureText('Organic Fuji apples').width).toBeCloseTo(small * 2, 9);
  });

  test('mixed Chinese and Latin: the Latin part is kerned, the Chinese part drawn as before', async () => {
    const [plain, shaped] = await canvases();
    const han = '苹果';
    expect(shaped.measureText(han).width).toBe(plain.measureText(han).width);
    const kerned = plain.measureText(`${han}To`).width - shaped.measureText(`${han}To`).width;
    expect(kerned).toBeCloseTo(plain.measureText('To').width - shaped.measureText('To').width, 9);
    expect(kerned).toBeGreaterThan(3);
  });
});

describe('script fonts', () => {
  test('a text loads the base font and the fonts of its scripts, in the chain order', () => {
    expect(scriptFontsFor(['苹果 apple']).map((f) => f.key)).toEqual(['base']);
    expect(scriptFontsFor(['חלב', '농심', 'Γάλα']).map((f) => f.key)).toEqual(['base', 'latin', 'korean', 'hebrew']);
    expect(SCRIPT_FONTS.map((f) => f.key)).toEqual([
      'base',
      'latin',
      'korean',
      'thai',
      'arabic',
      'hebrew',
      'devanagari',
      'japanese',
    ]);
    // The Japanese font is no link of the chain: only a preference of texts with kana.
    expect(FALLBACK_ORDER).toEqual(SCRIPT_FONTS.filter((f) => f.key !== 'japanese').map((f) => f.family));
  });

  test('kana (hiragana, katakana, halfwidth katakana) load the Japanese font and prefer it; nothing else does', () => {
    for (const text of ['お茶', '伊藤園 ペットボトル', 'ｵｰｲｵﾁｬ', 'ラーメン 5袋', 'ー', '茶\u{1b001}']) {
      expect(
        scriptFontsFor([text]).map((f) => f.key),
        text,
      ).toEqual(['base', 'japanese']);
      expect(preferredFamilies(text), text).toEqual(['Noto Sans JP']);
    }
    // Han, CJK punctuation, the middle dot Chinese uses too, full-width forms, Hangul: not Japanese.
    for (const text of ['伊藤園 緑茶 骨', '新疆・阿克苏（特级）', 'ＡＢＣ１２３', '¥1,299.50', 'Fuji 5kg', '']) {
      expect(
        scriptFontsFor([text]).map((f) => f.key),
        text,
      ).toEqual(['base']);
      expect(preferredFamilies(text), text).toEqual([]);
    }
    // Hangul compatibility jamo alone load the Korean font (they were skipped as CJK before).
    expect(scriptFontsFor(['ㄱㄴ']).map((f) => f.key)).toEqual(['base', 'korean']);
    // One list object per set of preferred families: layouts and fonts are kept by it.
    expect(preferredFamilies('お茶')).toBe(preferredFamilies('ラーメン'));
    expect(cssFont({ family: FONT_FAMILY, weight: 'bold', preferred: preferredFamilies('お') }, 20)).toBe(
      'bold 20px "Noto Sans JP", "Noto Sans SC"',
    );
    expect(cssFont({ family: 'Brand', weight: 'normal', preferred: preferredFamilies('お') }, 20)).toBe(
      'normal 20px "Brand", "Noto Sans JP", "Noto Sans SC"',
    );
    expect(cssFont({ family: FONT_FAMILY, weight: 'normal', preferred: preferredFamilies('骨') }, 20)).toBe(
      'normal 20px "Noto Sans SC"',
    );
  });

  test('characters that draw nothing need no glyph', () => {
    for (const code of [0x20, 0x0a, 0x200d, 0x200f, 0xfe0f, 0x3000]) expect(needsGlyph(code)).toBe(false);
    for (const code of [0x41, 0xd55c, 0x1f600]) expect(needsGlyph(code)).toBe(true);
  });

  test('the rasteriser names the characters no font of the chain has', async () => {
    await loadShaper();
    const canvas = new SoftCanvas(10, 10, registerFonts());
    canvas.font = 'bold 20px "Noto Sans SC"';
    expect(canvas.missingGlyphs('苹果 apple')).toEqual([]);
    expect(canvas.missingGlyphs('Tea 🍵🍵 \u{10FFFD}')).toEqual(['🍵', '\u{10FFFD}']);
  });
});

describe('Japanese glyph forms: a text with kana draws its Han in Noto Sans JP', () => {
  test('"骨" takes its Japanese form before the base font; Latin and digits stay the base font\'s', async () => {
    await loadShaper();
    const canvas = new SoftCanvas(120, 60, loadScriptFonts(['お']));
    const draw = (font: string, text: string) => {
      canvas.fillStyle = '#ffffff';
      canvas.fillRect(0, 0, 120, 60);
      canvas.fillStyle = '#000000';
      canvas.font = font;
      canvas.fillText(text, 5, 48);
      return canvas.data.slice();
    };
    const japanese = '40px "Noto Sans JP", "Noto Sans SC"';
    const base = '40px "Noto Sans SC"';
    expect(draw(japanese, '骨')).not.toEqual(draw(base, '骨'));
    expect(draw(japanese, 'お骨')).not.toEqual(draw(base, 'お骨'));
    expect(draw(japanese, '5kg')).toEqual(draw(base, '5kg'));
  });

  test('the whole text prefers it (a line of Han only too), a text without kana never', async () => {
    const label = doc({
      size: { w: 200, h: 100 },
      colourType: 'bw',
      elements: [
        { type: 'text', id: 'ja', x: 0, y: 0, w: 200, h: 60, text: 'お茶\n骨骨骨', lines: 2, font: { size: 20 } },
        { type: 'text', id: 'zh', x: 0, y: 60, w: 200, h: 40, text: '骨骨骨', font: { size: 20 } },
      ],
    });
    const drawn: string[] = [];
    const fillText = SoftCanvas.prototype.fillText;
    const spy = vi.spyOn(SoftCanvas.prototype, 'fillText').mockImplementation(function (this: SoftCanvas, text, x, y) {
      drawn.push(`${text}: ${this.font}`);
      fillText.call(this, text, x, y);
    });
    try {
      expect((await renderToPng(label, {})).problems).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    expect(drawn).toEqual([
      'お茶: normal 20px "Noto Sans JP", "Noto Sans SC"',
      '骨骨骨: normal 20px "Noto Sans JP", "Noto Sans SC"',
      '骨骨骨: normal 20px "Noto Sans SC"',
    ]);
  });

  test('a Chinese label draws the same pixels whether or not a Japanese label loaded the font before', async () => {
    vi.resetModules();
    const fresh = await import('./node');
    const name = '伊藤园 绿茶 骨 525ml';
    const first = await fresh.renderToPng(priceLabel(296, 152, 'bwr'), { ...PRODUCT, name });
    vi.resetModules();
    const later = await import('./node');
    await later.renderToPng(priceLabel(296, 152, 'bwr'), { ...PRODUCT, name: '伊藤園 お〜いお茶 骨' });
    const second = await later.renderToPng(priceLabel(296, 152, 'bwr'), { ...PRODUCT, name });
    expect(Buffer.from(second.rgba).equals(Buffer.from(first.rgba))).toBe(true);
  }, 60_000);
});

describe('never silent: a character no font can draw is a render problem', () => {
  test('the preview reports the element, the field and the characters', async () => {
    const preview = await renderToPng(priceLabel(296, 152, 'bwr'), { ...PRODUCT, name: '苹果 🍎 Äpfel' });
    expect(preview.problems).toEqual([
      expect.objectContaining({ elementId: 'name', code: 'missingGlyph', chars: '🍎', field: 'name' }),
    ]);
    expect(preview.problems[0].message).toContain('U+1F34E');
  });

  test("an element's own text (not bound) is reported without a field", async () => {
    const label = doc({
      size: { w: 200, h: 60 },
      colourType: 'bw',
      elements: [{ type: 'text', id: 'title', x: 0, y: 0, w: 200, h: 60, text: 'ሰላም', font: { size: 20 } }],
    });
    const { problems } = await renderToPng(label, {});
    expect(problems).toEqual([expect.objectContaining({ elementId: 'title', chars: 'ሰላም', field: null })]);
  });

  test("a price's currency sign no font has is reported too", async () => {
    const label = priceLabel(296, 152, 'bwr');
    const withSign = {
      ...label,
      elements: label.elements.map((e) => (e.type === 'price' && e.id === 'price' ? { ...e, currency: '𐆚' } : e)),
    };
    const { problems } = await renderToPng(withSign, PRODUCT);
    expect(problems).toEqual([expect.objectContaining({ elementId: 'price', code: 'missingGlyph', chars: '𐆚' })]);
  });

  test('every script of the named markets draws without a problem', async () => {
    const names = ['농심 신라면', 'お〜いお茶', 'ข้าวหอมมะลิ', 'حليب ٣٪', 'חלב 3%', 'हिन्दी चाय', 'Молоко Γάλα Crème'];
    for (const name of names) {
      const { problems } = await renderToPng(priceLabel(296, 152, 'bwr'), { ...PRODUCT, name });
      expect(problems, name).toEqual([]);
    }
  });
});

describe('tiny text', () => {
  test('texts, barcode digits and price decimals below the legible size are flagged', () => {
    const label = doc({
      size: { w: 296, h: 152 },
      colourType: 'bw',
      elements: [
        { type: 'text', id: 'name', x: 0, y: 0, w: 200, h: 30, text: 'a', font: { size: 24 } },
        { type: 'text', id: 'spec', x: 0, y: 30, w: 200, h: 12, text: 'b', font: { size: 10 } },
        { type: 'text', id: 'edge', x: 0, y: 42, w: 200, h: 12, text: 'c', font: { size: LEGIBLE_PX } },
        { type: 'price', id: 'price', x: 0, y: 60, w: 100, h: 40, value: 1, font: { size: 20 }, minorScale: 0.5 },
        { type: 'barcode', id: 'ean', x: 100, y: 60, w: 190, h: 60, value: '6901234567892', font: { size: 9 } },
      ],
    });
    expect(tinyTexts(label)).toEqual([
      { elementId: 'spec', size: 10 },
      { elementId: 'price', size: 10 },
      { elementId: 'ean', size: 9 },
    ]);
  });
});

describe('the pixels of a label do not depend on what earlier labels loaded', () => {
  test('a Devanagari label draws the same after a Greek one loaded the Latin font', async () => {
    // Fresh module state: only the base font loaded.
    vi.resetModules();
    const fresh = await import('./node');
    const name = 'टाटा चाय प्रीमियम 250 ग्राम';
    const first = await fresh.renderToPng(priceLabel(296, 152, 'bwr'), { ...PRODUCT, name });
    vi.resetModules();
    const later = await import('./node');
    await later.renderToPng(priceLabel(296, 152, 'bwr'), { ...PRODUCT, name: 'Γάλα φρέσκο' });
    const second = await later.renderToPng(priceLabel(296, 152, 'bwr'), { ...PRODUCT, name });
    let differing = 0;
    for (let i = 0; i < first.rgba.length; i++) if (first.rgba[i] !== second.rgba[i]) differing++;
    expect(differing).toBe(0);
  }, 60_000);
});
