import { ColourType, COLOUR_SETS as INK_SETS } from '@esl/labels/model';
import { z } from 'zod';

/**
 * Colour depth code of a tag model (SPEC.md §3): 2 black/white, 3 three colours,
 * 4 four colours, 7 seven colours, 99 C type (full-colour panel, drawn with the seven-colour set).
 */
export const ColourDepth = z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(7), z.literal(99)]);
export type ColourDepth = z.infer<typeof ColourDepth>;

/** The colour type of a tag: which inks its panel has (the labels model's ColourType). */
export const TagColourType = ColourType;
export type TagColourType = ColourType;

export const TagModel = z.object({
  /** Two-character upper-case hex code, 01 to 44. */
  code: z.string().regex(/^[0-9A-F]{2}$/),
  name: z.string(),
  /** Visible pixel size, width × height, in the label's reading orientation. */
  w: z.number().int().positive(),
  h: z.number().int().positive(),
  rgb: ColourDepth,
  /** Pixels added to every row so the packed row matches the panel controller's source lines. */
  wext: z.number().int().min(0),
  /** White rows appended after the visible rows (controller gate lines beyond the visible area). */
  hexit: z.number().int().min(0),
  /** Diagonal in inches. */
  inches: z.number().positive(),
  /** Colour types the model is made in; the first is the usual one. */
  colours: z.array(TagColourType).min(1),
  /** True for the eight rows SPEC.md §3 gives; the rest are ours, built from real panels. */
  given: z.boolean(),
  /**
   * Made with an NFC chip a station can write (docs/CATALOGUE.md, docs/SHELF.md): the shelf-edge
   * sizes, up to 7.5 inches; the display-size panels from 9.7 inches, hung out of a shopper's
   * reach, are not.
   */
  nfc: z.boolean(),
});
export type TagModel = z.infer<typeof TagModel>;

type Row = [code: string, name: string, w: number, h: number, rgb: ColourDepth, given?: true];

// Codes 01–30 run from the smallest to the largest panel; 31–44 are later additions.
// Name suffixes (ours): T/L black-white-red, B black-white, Y black-white-yellow,
// F four colours (BWRY), H/FH high resolution, S seven colours, C full-colour C type.
const rows: Row[] = [
  ['01', '1.54T', 200, 200, 3, true],
  ['02', '1.54B', 200, 200, 2],
  ['03', '1.54L', 152, 152, 3],
  ['04', '1.60T', 168, 168, 3],
  ['05', '2.13L', 250, 122, 3, true],
  ['06', '2.13B', 250, 122, 2],
  ['07', '2.13T', 212, 104, 3],
  ['08', '2.13F', 250, 122, 4],
  ['09', '2.20T', 296, 160, 3],
  ['0A', '2.66L', 296, 152, 3, true],
  ['0B', '2.66B', 296, 152, 2],
  ['0C', '2.66F', 296, 152, 4],
  ['0D', '2.66Y', 296, 152, 3],
  ['0E', '2.70T', 264, 176, 3],
  ['0F', '2.90T', 296, 128, 3],
  ['10', '2.90B', 296, 128, 2],
  ['11', '2.90Y', 296, 128, 3],
  ['12', '2.90F', 296, 128, 4],
  ['13', '3.00F', 400, 168, 4],
  ['14', '3.50T', 384, 184, 3],
  ['15', '3.50B', 384, 184, 2],
  ['16', '3.50Y', 384, 184, 3],
  ['17', '3.70T', 416, 240, 3],
  ['18', '3.70F', 480, 280, 4],
  ['19', '4.20B', 400, 300, 2],
  ['1A', '4.20Y', 400, 300, 3],
  ['1B', '4.20F', 400, 300, 4],
  ['1C', '4.20T', 400, 300, 3, true],
  ['1D', '4.30T', 522, 152, 3],
  ['1E', '4.30F', 522, 152, 4],
  ['1F', '5.80T', 648, 480, 3],
  ['20', '5.85T', 792, 272, 3],
  ['21', '6.00T', 600, 448, 3],
  ['22', '6.00B', 600, 448, 2],
  ['23', '7.30S', 800, 480, 7],
  ['24', '7.50B', 800, 480, 2],
  ['25', '7.50Y', 800, 480, 3],
  ['26', '7.50L', 640, 384, 3],
  ['27', '7.50F', 800, 480, 4],
  ['28', '7.50T', 800, 480, 3, true],
  ['29', '7.50H', 880, 528, 3],
  ['2A', '9.70T', 960, 672, 3],
  ['2B', '10.20B', 960, 640, 2],
  ['2C', '10.20T', 960, 640, 3, true],
  ['2D', '11.60T', 960, 640, 3],
  ['2E', '11.60B', 960, 640, 2],
  ['2F', '12.20T', 960, 768, 3],
  ['30', '12.50T', 1304, 984, 3, true],
  ['31', '12.50B', 1304, 984, 2],
  ['32', '13.30C', 1600, 1200, 99],
  ['33', '13.30T', 960, 680, 3],
  ['34', '1.54F', 200, 200, 4],
  ['35', '2.13Y', 250, 122, 3],
  ['36', '2.60T', 360, 184, 3],
  ['37', '2.60F', 360, 184, 4],
  ['38', '2.70H', 300, 200, 3],
  ['39', '2.90H', 384, 168, 3],
  ['3A', '2.90HB', 384, 168, 2],
  ['3B', '3.50H', 480, 224, 4],
  ['3C', '5.85F', 720, 256, 4],
  ['3D', '6.00S', 600, 448, 7],
  ['3E', '7.30C', 800, 480, 99],
  ['3F', '7.50FH', 880, 528, 4],
  ['40', '9.70B', 960, 672, 2],
  ['41', '11.60F', 960, 640, 4],
  ['42', '12.20B', 960, 768, 2],
  ['43', '13.30B', 960, 680, 2],
  ['44', '2.90FH', 384, 168, 4, true],
];

function coloursFor(name: string, rgb: ColourDepth): TagColourType[] {
  if (rgb === 2) return ['bw'];
  if (rgb === 4) return ['bwry'];
  if (rgb === 7 || rgb === 99) return ['seven'];
  return /Y$/.test(name) ? ['bwy'] : ['bwr', 'bwy'];
}

/** Rows are packed 8 pixels to a byte: pad every row to the next multiple of 8. */
function rowPadding(w: number): number {
  return (8 - (w % 8)) % 8;
}

/** Largest diagonal made with NFC, inches: the shelf-edge sizes (docs/CATALOGUE.md). */
const NFC_MAX_INCHES = 7.5;

/** Panels of 122 visible rows are driven by 128 gate lines. */
function extraRows(h: number): number {
  return h === 122 ? 6 : 0;
}

export const TAG_MODELS: readonly TagModel[] = rows.map(([code, name, w, h, rgb, given]) => ({
  code,
  name,
  w,
  h,
  rgb,
  wext: rowPadding(w),
  hexit: extraRows(h),
  inches: Number.parseFloat(name),
  colours: coloursFor(name, rgb),
  given: given === true,
  nfc: Number.parseFloat(name) <= NFC_MAX_INCHES,
}));

export const TAG_MODEL_BY_CODE: ReadonlyMap<string, TagModel> = new Map(TAG_MODELS.map((m) => [m.code, m]));

export function findTagModel(code: string): TagModel | undefined {
  return TAG_MODEL_BY_CODE.get(code.toUpperCase());
}

/** Colours of each colour type, in the order bit-planes and palette indexes use them (the labels model's). */
export const COLOUR_SETS = INK_SETS;
