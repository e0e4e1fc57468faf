import {
  type FontLibrary,
  type HarfBuzzModule,
  type LabelData,
  labelTexts,
  ScriptFontLoader,
  type TemplateDocument,
} from '@esl/labels';

// Labels are drawn by the label rasteriser of @esl/labels from TrueType outlines, in the editor as
// on the server: the editor reads the very font files the server draws with (served under
// /fonts/, cached by the browser for a week), so its picture is the tag's pixels. The base font
// (Latin, Chinese, kana) loads with the editor; another script's font (Korean, Thai, Arabic,
// Hebrew, Devanagari, extended Latin/Greek/Cyrillic) and HarfBuzz (the shaper, WebAssembly) load
// only when a label's text first needs them, so no other page downloads them.

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
 * Loads what a label needs before it is drawn: its scripts' fonts and, for complex scripts, the
 * shaper. The font set the editor draws with grows in place (its canvases notice).
 */
export function prepareLabelFonts(doc: TemplateDocument, data: LabelData): Promise<FontLibrary> {
  return loader.prepare(labelTexts(doc, data));
}
