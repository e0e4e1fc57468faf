import { LABEL_FONTS } from '@esl/contract';
import { FONT_FAMILY } from '@esl/labels';
import regularUrl from '@fontsource/noto-sans-sc/files/noto-sans-sc-chinese-simplified-400-normal.woff2?url';
import boldUrl from '@fontsource/noto-sans-sc/files/noto-sans-sc-chinese-simplified-700-normal.woff2?url';

// The server draws labels with Noto Sans SC regular and bold and serves those very font files
// (LABEL_FONTS). The editor loads them with the FontFace API and draws only once they are ready, so
// its canvas uses the same glyphs as the tag's image. Where the server's files cannot be had (the
// Vite dev server does not pass /fonts on), the @fontsource cut of the same family stands in: its
// simplified-Chinese file holds Latin, digits and currency signs too, but not every rare character.

/** Where the label fonts came from: the server's own files, or the copy bundled with the console. */
export type FontSource = 'server' | 'bundled';

const BUNDLED = [
  { url: regularUrl, weight: '400' },
  { url: boldUrl, weight: '700' },
] as const;

async function addFaces(faces: readonly { url: string; weight: string }[]): Promise<void> {
  const loaded = await Promise.all(
    faces.map((f) => new FontFace(FONT_FAMILY, `url(${f.url})`, { weight: f.weight, style: 'normal' }).load()),
  );
  for (const face of loaded) document.fonts.add(face);
}

let loading: Promise<FontSource> | null = null;

/** Loads the label fonts once and says from where; a failed load may be retried by calling again. */
export function loadLabelFonts(): Promise<FontSource> {
  loading ??= addFaces(LABEL_FONTS)
    .then((): FontSource => 'server')
    .catch(() => addFaces(BUNDLED).then((): FontSource => 'bundled'))
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
}
