import { type FontFile, parseFont } from './font';
import type { FontFace, LabelFonts } from './raster';
import { FontLibrary } from './raster';

/**
 * A tenant's own fonts (brand fonts, docs/LABELS.md "Fonts a retailer brings"): what an uploaded
 * file is (by its bytes, never its name), the family and weight it declares, and a font set that
 * puts a tenant's faces in front of the shared label fonts without changing them, so one process
 * draws every tenant's labels and no tenant ever draws with another's fonts.
 */

/** The font formats a tenant may upload, by their first four bytes. */
export type FontFormat = 'ttf' | 'otf' | 'woff2';

/** The format of a font file by its magic bytes, or null when it is not one of ours. */
export function fontFormat(bytes: Uint8Array): FontFormat | null {
  if (bytes.length < 12) return null;
  const magic = String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
  if ((bytes[0] === 0 && bytes[1] === 1 && bytes[2] === 0 && bytes[3] === 0) || magic === 'true') return 'ttf';
  if (magic === 'OTTO') return 'otf';
  if (magic === 'wOF2') return 'woff2';
  return null;
}

/** Why a font file was refused (the server words it in the user's language). */
export type FontRefusal = 'notFont' | 'fontBroken' | 'fontOutlines';

export class FontRefused extends Error {
  constructor(readonly reason: FontRefusal) {
    super(reason);
    this.name = 'FontRefused';
  }
}

/** What an accepted font file declares. */
export interface BrandFontInfo {
  readonly format: FontFormat;
  /** The family the file names (name table: typographic family, else family), trimmed; '' if none. */
  readonly family: string;
  /** 700 for a bold face (OS/2 weight class 600 and above), else 400. */
  readonly weight: 400 | 700;
  readonly glyphs: number;
}

function tablesOf(view: DataView): Map<string, { offset: number; length: number }> {
  const tables = new Map<string, { offset: number; length: number }>();
  const count = view.getUint16(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i;
    const tag = String.fromCharCode(
      view.getUint8(at),
      view.getUint8(at + 1),
      view.getUint8(at + 2),
      view.getUint8(at + 3),
    );
    const offset = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    if (offset + length > view.byteLength) throw new FontRefused('fontBroken');
    tables.set(tag, { offset, length });
  }
  return tables;
}

/** The family a font's name table gives (nameID 16, else 1; Windows Unicode preferred, else Mac Roman). */
function familyName(view: DataView, name: { offset: number; length: number } | undefined): string {
  if (!name) return '';
  const count = view.getUint16(name.offset + 2);
  const strings = name.offset + view.getUint16(name.offset + 4);
  let best: { rank: number; text: string } | null = null;
  for (let i = 0; i < count; i++) {
    const at = name.offset + 6 + 12 * i;
    const platform = view.getUint16(at);
    const id = view.getUint16(at + 6);
    if (id !== 1 && id !== 16) continue;
    const length = view.getUint16(at + 8);
    const start = strings + view.getUint16(at + 10);
    if (start + length > view.byteLength) continue;
    let text = '';
    if (platform === 3 || platform === 0) {
      for (let p = 0; p + 1 < length; p += 2) text += String.fromCharCode(view.getUint16(start + p));
    } else if (platform === 1) {
      for (let p = 0; p < length; p++) text += String.fromCharCode(view.getUint8(start + p));
    } else continue;
    const rank = (id === 16 ? 0 : 2) + (platform === 1 ? 1 : 0);
    if (!best || rank < best.rank) best = { rank, text };
  }
  return Array.from(best?.text ?? '')
    .filter((c) => c.charCodeAt(0) >= 0x20)
    .join('')
    .trim();
}

/**
 * Checks a font file by its content: the magic bytes, then the font itself parses and draws (its
 * tables lie inside the file, it maps characters, and its glyphs' outlines read: TrueType glyf or
 * OpenType CFF). Answers what it declares, or throws FontRefused. A WOFF2 is checked after it is
 * unpacked (`decodeWoff2`, at upload); given as it is, it is refused ('fontOutlines'), as is an
 * OTF whose outlines are CFF2 (a variable font).
 */
export function checkBrandFont(bytes: Uint8Array): BrandFontInfo {
  const format = fontFormat(bytes);
  if (!format) throw new FontRefused('notFont');
  if (format === 'woff2') throw new FontRefused('fontOutlines');
  let font: FontFile;
  let family: string;
  let weight: 400 | 700 = 400;
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const tables = tablesOf(view);
    if (tables.has('CFF2') && !tables.has('CFF ')) throw new FontRefused('fontOutlines');
    family = familyName(view, tables.get('name'));
    const os2 = tables.get('OS/2');
    if (os2 && os2.length >= 6 && view.getUint16(os2.offset + 4) >= 600) weight = 700;
    font = parseFont(bytes);
    // Every glyph's outline must read: a font that throws here would throw at render time.
    for (let id = 0; id < font.numGlyphs; id++) font.glyph(id);
    let mapped = 0;
    for (let code = 0x20; code < 0x7f; code++) if (font.glyphIndex(code) !== 0) mapped++;
    for (const code of [0x4e00, 0x6c34, 0xac00, 0x0e01, 0x0627, 0x05d0, 0x0915]) {
      if (font.glyphIndex(code) !== 0) mapped++;
    }
    if (mapped === 0) throw new Error('maps none of the characters labels use');
  } catch (error) {
    if (error instanceof FontRefused) throw error;
    throw new FontRefused('fontBroken');
  }
  return { format, family, weight, glyphs: font.numGlyphs };
}

/**
 * A tenant's font set: its own faces in front of the shared label fonts (`base`, whose fallback
 * chain and shaper it uses). The base is never changed, so what one tenant uploads is drawn only
 * on that tenant's labels; a family neither has falls back to the base font and is reported.
 */
export class TenantFonts implements LabelFonts {
  private readonly own: FontLibrary;

  constructor(
    private readonly base: LabelFonts,
    faces: readonly FontFace[],
  ) {
    this.own = new FontLibrary(faces, []);
  }

  /** Adds faces (the editor loads a brand font when a label first names it). */
  add(faces: readonly FontFace[]): void {
    this.own.add(faces);
  }

  has(family: string): boolean {
    return this.own.has(family);
  }

  face(family: string, bold: boolean): FontFile | null {
    return this.own.face(family, bold) ?? this.base.face(family, bold);
  }

  fallbacks(bold: boolean): readonly FontFile[] {
    return this.base.fallbacks?.(bold) ?? [];
  }

  get version(): number {
    // Both only grow: the sum changes whenever either does.
    return (this.base.version ?? 0) + this.own.version;
  }

  get shaper() {
    return this.base.shaper ?? null;
  }
}
