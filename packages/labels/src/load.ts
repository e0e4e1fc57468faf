import { parseFont } from './font';
import { FontLibrary } from './raster';
import { FALLBACK_ORDER, markScriptFace, SCRIPT_FONTS, type ScriptFont, scriptFontsFor } from './scripts';
import { type HarfBuzzModule, harfBuzzShaper, needsShaping } from './shape';

/** How a browser gets what labels are drawn with: a font file's bytes by name, and HarfBuzz. */
export interface FontSource {
  /** The bytes of a script font file (ScriptFont.regular or .bold), e.g. from the server's /fonts/. */
  file(name: string): Promise<Uint8Array>;
  /** harfbuzzjs, loaded when a text first needs shaping (`() => import('harfbuzzjs')`). */
  harfBuzz(): Promise<HarfBuzzModule>;
}

/**
 * The label fonts of a page, loaded per script on demand: the base font first, another script's
 * font (and the shaper) only once a text needs it, each once. The editor awaits `prepare` with the
 * texts of a label before drawing it, so it draws with the fonts the server draws that label with.
 */
export class ScriptFontLoader {
  readonly library = new FontLibrary([], FALLBACK_ORDER);
  private readonly loading = new Map<ScriptFont, Promise<void>>();
  private shaping: Promise<void> | null = null;

  constructor(private readonly source: FontSource) {}

  /** Loads the fonts and the shaper these texts need; a failed load may be retried by calling again. */
  async prepare(texts: readonly string[]): Promise<FontLibrary> {
    const needed = scriptFontsFor(texts);
    const loads = needed.map((script) => this.script(script));
    if (texts.some(needsShaping)) loads.push(this.shaper());
    await Promise.all(loads);
    return this.library;
  }

  /** Loads the base font only (what a Chinese or Latin label needs). */
  base(): Promise<FontLibrary> {
    return this.prepare([]);
  }

  private script(script: ScriptFont): Promise<void> {
    let pending = this.loading.get(script);
    if (!pending) {
      pending = Promise.all([this.source.file(script.regular), this.source.file(script.bold)])
        .then(([regular, bold]) => {
          const faces = [parseFont(regular), parseFont(bold)];
          for (const face of faces) markScriptFace(face, script);
          this.library.add([
            { family: script.family, weight: 400, font: faces[0] },
            { family: script.family, weight: 700, font: faces[1] },
          ]);
        })
        .catch((error: unknown) => {
          this.loading.delete(script);
          throw error;
        });
      this.loading.set(script, pending);
    }
    return pending;
  }

  private shaper(): Promise<void> {
    this.shaping ??= this.source
      .harfBuzz()
      .then((hb) => {
        this.library.shaper = harfBuzzShaper(hb);
      })
      .catch((error: unknown) => {
        this.shaping = null;
        throw error;
      });
    return this.shaping;
  }
}

/** Every script font file name (what the server serves under /fonts/). */
export const SCRIPT_FONT_FILES: readonly string[] = SCRIPT_FONTS.flatMap((f) => [f.regular, f.bold]);
