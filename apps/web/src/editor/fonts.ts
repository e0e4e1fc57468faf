import { LABEL_FONTS } from '@esl/contract';
import { type LabelFonts, labelFonts, parseFont } from '@esl/labels';

// Labels are drawn by the label rasteriser of @esl/labels from TrueType outlines, in the editor as
// on the server: the editor reads the very font files the server draws with (LABEL_FONTS, served
// under /fonts/, cached by the browser for a week), so its picture is the tag's pixels. Without
// them it draws nothing rather than something the tag will not show.

async function readFont(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

let loading: Promise<LabelFonts> | null = null;

/** Loads the label fonts once; a failed load may be retried by calling again. */
export function loadLabelFonts(): Promise<LabelFonts> {
  loading ??= Promise.all(
    LABEL_FONTS.map(async (f) => ({ family: f.family, weight: f.weight, font: parseFont(await readFont(f.url)) })),
  )
    .then(labelFonts)
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
}
