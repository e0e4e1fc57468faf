import { type BrandFont, CALLS } from '@esl/contract';
import {
  type FontLibrary,
  type HarfBuzzModule,
  type LabelData,
  labelTexts,
  parseFont,
  ScriptFontLoader,
  type TemplateDocument,
} from '@esl/labels';
import { download, requestList } from '../platform/request';

// Labels are drawn by the label rasteriser of @esl/labels from TrueType outlines, in the editor as
// on the server: the editor reads the very font files the server draws with (served under
// /fonts/, cached by the browser for a week), so its picture is the tag's pixels. The base font
// (Latin, Chinese, kana) loads with the editor; another script's font (Korean, Thai, Arabic,
// Hebrew, Devanagari, extended Latin/Greek/Cyrillic; Japanese, preferred before the base font by a
// text with kana) and HarfBuzz (the shaper, WebAssembly) load only when a label's text first needs
// them, so no other page downloads them.

async function readFont(name: string): Promise<Uint8Array> {
  const url = `/fonts/${encodeURIComponent(name)}`;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

const loader = new ScriptFontLoader({
  file: readFont,
  harfBuzz: async () => (await import('harfbuzzjs')) as unknown as HarfBuzzModule,
});

/** Loads the base label fonts (once); a failed load may be retried by calling again. */
export function loadLabelFonts(): Promise<FontLibrary> {
  return loader.base();
}

/**
 * Loads what a label needs before it is drawn: its scripts' fonts and, for a text with a Latin
 * letter, a kana or a complex script (`needsShaping`), the shaper: the editor draws kerning and
 * ligatures as the server does. The font set the editor draws with grows in place (its canvases notice).
 */
export async function prepareLabelFonts(doc: TemplateDocument, data: LabelData): Promise<FontLibrary> {
  const library = await loader.prepare(labelTexts(doc, data));
  const families = new Set(doc.elements.map((e) => e.font.family.toLowerCase()));
  if ([...families].some((f) => !library.has(f))) {
    const brand = await brandFonts();
    await Promise.all(brand.filter((f) => families.has(f.family.toLowerCase())).map(loadBrandFont));
  }
  return library;
}

// A tenant's brand fonts (docs/LABELS.md "Fonts a retailer brings"): listed by the tenant's own
// call, each file fetched with the session from the tenant-scoped /mgr/templ/fontfile when a label
// first names its family, parsed and added to the editor's font set (not to the fallback chain).
// Another tenant's family is never listed, so it falls back and the preview reports it.

let brandList: Promise<BrandFont[]> | null = null;
const brandLoads = new Map<number, Promise<void>>();

/** The tenant's brand fonts, listed once a page (again after forgetBrandFonts). */
export function brandFonts(): Promise<BrandFont[]> {
  brandList ??= requestList('fontList', {}, { quiet: true })
    .then((answer) => answer.rows)
    .catch(() => {
      brandList = null;
      return [];
    });
  return brandList;
}

/** The list changed (a font uploaded or deleted): list again on the next label. */
export function forgetBrandFonts(): void {
  brandList = null;
}

function loadBrandFont(font: BrandFont): Promise<void> {
  let pending = brandLoads.get(font.id);
  if (!pending) {
    pending = download(CALLS.fontFile.path, { id: font.id }, { quiet: true })
      .then(async ({ blob }) => {
        const face = parseFont(new Uint8Array(await blob.arrayBuffer()));
        loader.library.add([{ family: font.family, weight: font.weight, font: face }]);
      })
      .catch(() => {
        brandLoads.delete(font.id);
      });
    brandLoads.set(font.id, pending);
  }
  return pending;
}
