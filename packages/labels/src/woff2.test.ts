import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants, inflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { type FontFile, parseFont } from './font';
import { type BrotliDecompress, decodeWoff2 } from './woff2';

// The oracle: Noto Sans SC from fontsource (hoisted from apps/web), every subset as WOFF2 and as
// WOFF 1.0 (zlib per table, unpacked here independently of the decoder under test). The WOFF2
// files were made by another encoder (fontTools), so they also check our reading of the spec.
//
// Only the `chinese-simplified` pair is one build in both formats. The numbered and latin subsets'
// .woff files come from another build (static fonts with overlaps removed; their .woff2 are
// instances of the variable font): same advances and cmap, different outlines for some glyphs.
// Their .woff2 glyphs are compared with the chinese-simplified .woff's glyph for the same character.
const dir = fileURLToPath(new URL('../../../node_modules/@fontsource/noto-sans-sc/files/', import.meta.url));
const names = readdirSync(dir);
const read = (name: string) => new Uint8Array(readFileSync(dir + name));
const pick = (pattern: RegExp) => names.filter((name) => pattern.test(name)).map((name) => name.slice(0, -6));
const wholeFonts = pick(/^noto-sans-sc-chinese-simplified-(400|700)-normal\.woff2$/);
const subsets = pick(/^noto-sans-sc-(latin|110|117)-(400|700)-normal\.woff2$/);

const brotli: BrotliDecompress = (data, maxOutputLength) =>
  new Uint8Array(brotliDecompressSync(data, { maxOutputLength }));
const decode = (bytes: Uint8Array, limit?: number) => decodeWoff2(bytes, brotli, limit);

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const tagAt = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/** WOFF 1.0: a 44-byte header, 20-byte table entries, each table zlib-compressed unless that saved nothing. */
function unpackWoff1(bytes: Uint8Array): Map<string, Uint8Array> {
  const file = view(bytes);
  expect(tagAt(bytes, 0)).toBe('wOFF');
  const tables = new Map<string, Uint8Array>();
  for (let i = 0; i < file.getUint16(12); i++) {
    const at = 44 + 20 * i;
    const [offset, compLength, origLength] = [file.getUint32(at + 4), file.getUint32(at + 8), file.getUint32(at + 12)];
    const data = bytes.subarray(offset, offset + compLength);
    const table = compLength < origLength ? new Uint8Array(inflateSync(data)) : data;
    expect(table.length).toBe(origLength);
    tables.set(tagAt(bytes, at), table);
  }
  return tables;
}

/** A bare sfnt around tables (no checksums: parseFont does not read them). */
function sfnt(tables: Map<string, Uint8Array>): Uint8Array {
  const tags = [...tables.keys()];
  const size = [...tables.values()].reduce(
    (sum, table) => sum + Math.ceil(table.length / 4) * 4,
    12 + 16 * tags.length,
  );
  const font = new Uint8Array(size);
  const out = view(font);
  out.setUint32(0, 0x00010000);
  out.setUint16(4, tags.length);
  let offset = 12 + 16 * tags.length;
  tags.forEach((tag, i) => {
    const table = tables.get(tag)!;
    font.set(new TextEncoder().encode(tag), 12 + 16 * i);
    out.setUint32(12 + 16 * i + 8, offset);
    out.setUint32(12 + 16 * i + 12, table.length);
    font.set(table, offset);
    offset += Math.ceil(table.length / 4) * 4;
  });
  return font;
}

function tablesOf(font: Uint8Array): Map<string, Uint8Array> {
  const tables = new Map<string, Uint8Array>();
  const file = view(font);
  for (let i = 0; i < file.getUint16(4); i++) {
    const at = 12 + 16 * i;
    const offset = file.getUint32(at + 8);
    tables.set(tagAt(font, at), font.subarray(offset, offset + file.getUint32(at + 12)));
  }
  return tables;
}

/** One glyph's bytes in glyf, by loca in head's format. */
function glyphBytes(tables: Map<string, Uint8Array>, id: number): Uint8Array {
  const loca = view(tables.get('loca')!);
  const long = view(tables.get('head')!).getInt16(50) === 1;
  const at = (i: number) => (long ? loca.getUint32(4 * i) : 2 * loca.getUint16(2 * i));
  return tables.get('glyf')!.subarray(at(id), at(id + 1));
}

/** OpenType's checksum, written apart from the decoder's: the sum of big-endian words, zero padded. */
function sum(bytes: Uint8Array): number {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  let total = 0;
  for (let at = 0; at < padded.length; at += 4) total = (total + view(padded).getUint32(at)) % 2 ** 32;
  return total;
}

/** The sfnt is well formed: binary-search fields, records by tag, aligned tables, right checksums. */
function expectValidSfnt(font: Uint8Array): void {
  const file = view(font);
  const count = file.getUint16(4);
  const power = 2 ** Math.floor(Math.log2(count));
  expect([file.getUint16(6), file.getUint16(8), file.getUint16(10)]).toEqual([
    16 * power,
    Math.log2(power),
    16 * (count - power),
  ]);
  let previous = '';
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i;
    const tag = tagAt(font, at);
    const [checksum, offset, length] = [file.getUint32(at + 4), file.getUint32(at + 8), file.getUint32(at + 12)];
    expect(tag > previous, `${tag} after ${previous}`).toBe(true);
    previous = tag;
    expect(offset % 4).toBe(0);
    expect(offset + Math.ceil(length / 4) * 4).toBeLessThanOrEqual(font.length);
    const table = font.slice(offset, offset + length);
    if (tag === 'head') table.fill(0, 8, 12);
    expect(sum(table), `${tag} checksum`).toBe(checksum);
  }
  expect(sum(font)).toBe(0xb1b0afba);
}

/** Which tables a WOFF2 file stores transformed: its directory, read here by hand (spec 5). */
function transforms(bytes: Uint8Array): Map<number, number> {
  const versions = new Map<number, number>(); // known-tag index → transform version
  let at = 48;
  const base128 = () => {
    while (bytes[at++] & 0x80);
  };
  for (let i = 0; i < view(bytes).getUint16(12); i++) {
    const flags = bytes[at++];
    const [index, version] = [flags & 0x3f, flags >> 6];
    if (index === 63) at += 4;
    versions.set(index, version);
    base128();
    if (index === 10 || index === 11 ? version !== 3 : version !== 0) base128();
  }
  return versions;
}

const GLYF = 10;
const LOCA = 11;

function expectSameGlyph(font: FontFile, id: number, reference: FontFile, referenceId: number, mismatches: string[]) {
  const [a, b] = [font.glyph(id), reference.glyph(referenceId)];
  if (JSON.stringify(a.contours) !== JSON.stringify(b.contours)) mismatches.push(`glyph ${id} contours`);
}

describe('the fontsource WOFF2 files', () => {
  test('store glyf and loca transformed, so the tests below rebuild them', () => {
    expect(wholeFonts).toHaveLength(2);
    expect(subsets).toHaveLength(6);
    for (const name of [...wholeFonts, ...subsets]) {
      const versions = transforms(read(`${name}.woff2`));
      expect(versions.get(GLYF), name).toBe(0);
      expect(versions.get(LOCA), name).toBe(0);
    }
  });
});

describe('a whole font decodes to the same font as its WOFF 1.0 (chinese-simplified, one build)', () => {
  test.each(wholeFonts)('%s', (name) => {
    const font = decode(read(`${name}.woff2`));
    const reference = unpackWoff1(read(`${name}.woff`));
    expect(view(font).getUint32(0)).toBe(0x00010000);
    expectValidSfnt(font);
    const tables = tablesOf(font);
    expect([...tables.keys()].sort()).toEqual([...reference.keys()].sort());
    // Every table but the rebuilt glyf and loca comes back byte for byte; head differs only by the
    // checksum adjustment and flags bit 11 ("converted losslessly"), which the WOFF2 encoder sets.
    for (const [tag, table] of reference) {
      if (tag === 'glyf' || tag === 'loca') continue;
      const mine = tables.get(tag)!.slice();
      if (tag === 'head') {
        mine.set(table.subarray(8, 12), 8);
        mine[16] &= ~0x08;
      }
      expect(Buffer.from(mine).equals(Buffer.from(table)), tag).toBe(true);
    }
    expect(view(tables.get('head')!).getInt16(50)).toBe(1); // long loca

    const [a, b] = [parseFont(font), parseFont(sfnt(reference))];
    expect(a.numGlyphs).toBe(b.numGlyphs);
    const mismatches: string[] = [];
    for (let id = 0; id < b.numGlyphs; id++) {
      if (a.glyph(id).advance !== b.glyph(id).advance) mismatches.push(`glyph ${id} advance`);
      expectSameGlyph(a, id, b, id, mismatches);
      // The glyph header: contour count and the bounding box the decoder computed.
      const [header, expected] = [glyphBytes(tables, id).subarray(0, 10), glyphBytes(reference, id).subarray(0, 10)];
      if (!Buffer.from(header).equals(Buffer.from(expected))) mismatches.push(`glyph ${id} header`);
    }
    expect(mismatches).toEqual([]);
    expect(b.numGlyphs).toBeGreaterThan(8000);
    let mapped = 0;
    for (let code = 0; code <= 0x10ffff; code++) {
      const glyph = b.glyphIndex(code);
      if (glyph) mapped++;
      if (a.glyphIndex(code) !== glyph) mismatches.push(`U+${code.toString(16)}`);
    }
    expect(mismatches).toEqual([]);
    expect(mapped).toBeGreaterThan(7000);
  });
});

describe('subsets decode with short loca', () => {
  const whole = new Map<string, FontFile>();
  const wholeFont = (weight: string) => {
    if (!whole.has(weight)) {
      const reference = unpackWoff1(read(`noto-sans-sc-chinese-simplified-${weight}-normal.woff`));
      whole.set(weight, parseFont(sfnt(reference)));
    }
    return whole.get(weight)!;
  };

  test.each(subsets)('%s', (name) => {
    const font = decode(read(`${name}.woff2`));
    expect(view(font).getUint32(0)).toBe(0x00010000);
    expectValidSfnt(font);
    const tables = tablesOf(font);
    expect(view(tables.get('head')!).getInt16(50)).toBe(0); // short loca
    const [a, own] = [parseFont(font), parseFont(sfnt(unpackWoff1(read(`${name}.woff`))))];
    const reference = wholeFont(name.split('-').at(-2)!);
    expect(a.numGlyphs).toBe(own.numGlyphs);
    const mismatches: string[] = [];
    for (let id = 0; id < own.numGlyphs; id++) {
      if (a.glyph(id).advance !== own.glyph(id).advance) mismatches.push(`glyph ${id} advance`);
    }
    let mapped = 0;
    for (let code = 0; code <= 0x10ffff; code++) {
      const glyph = own.glyphIndex(code);
      if (a.glyphIndex(code) !== glyph) mismatches.push(`U+${code.toString(16)} maps differently`);
      if (!glyph) continue;
      mapped++;
      const referenceId = reference.glyphIndex(code);
      if (!referenceId) mismatches.push(`U+${code.toString(16)} not in the whole font`);
      else expectSameGlyph(a, glyph, reference, referenceId, mismatches);
    }
    expect(mismatches).toEqual([]);
    expect(mapped).toBeGreaterThan(150);
  });
});

// A WOFF2 writer for fonts made here: every table named by an explicit tag (index 63), stored as given.
interface Woff2Table {
  readonly tag: string;
  readonly data: Uint8Array;
  /** Transform version (flags bits 6-7); glyf and loca 3 = null transform. */
  readonly version?: number;
  /** Whether a transformLength follows (the table in the stream is transformed). */
  readonly transformed?: boolean;
  readonly origLength?: number;
  /** The origLength field's bytes as written, to make malformed numbers. */
  readonly origLengthBytes?: readonly number[];
}

function base128(value: number): number[] {
  const bytes = [value & 0x7f];
  for (let rest = Math.floor(value / 128); rest > 0; rest = Math.floor(rest / 128)) bytes.unshift(0x80 | (rest & 0x7f));
  return bytes;
}

const concat = (...parts: readonly (Uint8Array | readonly number[])[]) => {
  const arrays = parts.map((part) => (part instanceof Uint8Array ? part : Uint8Array.from(part)));
  const out = new Uint8Array(arrays.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of arrays) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};
const u16 = (...values: number[]) => values.flatMap((v) => [(v >> 8) & 0xff, v & 0xff]);
const u32 = (...values: number[]) => values.flatMap((v) => [...u16(v >>> 16), ...u16(v & 0xffff)]);

function encodeWoff2(tables: readonly Woff2Table[], flavor = 0x00010000): Uint8Array {
  const directory = tables.flatMap((table) => [
    ((table.version ?? 0) << 6) | 63,
    ...table.tag.split('').map((c) => c.charCodeAt(0)),
    ...(table.origLengthBytes ?? base128(table.origLength ?? table.data.length)),
    ...(table.transformed ? base128(table.data.length) : []),
  ]);
  const stream = concat(...tables.map((table) => table.data));
  const compressed = brotliCompressSync(stream, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  const length = 48 + directory.length + compressed.length;
  const header = [
    ...u32(0x774f4632, flavor, length),
    ...u16(tables.length, 0),
    ...u32(stream.length, compressed.length), // totalSfntSize is a hint; any value serves
    ...u16(1, 0),
    ...u32(0, 0, 0, 0, 0),
  ];
  return concat(header, directory, compressed);
}

/** A WOFF2 of the latin subset's WOFF 1.0 tables, glyf and loca untransformed, hmtx as given. */
function latinAsWoff2(hmtx: (tables: Map<string, Uint8Array>) => Woff2Table | null) {
  const tables = unpackWoff1(read('noto-sans-sc-latin-400-normal.woff'));
  const entries = [...tables].map(([tag, data]): Woff2Table => {
    if (tag === 'glyf' || tag === 'loca') return { tag, data, version: 3 };
    return (tag === 'hmtx' && hmtx(tables)) || { tag, data };
  });
  return { tables, woff2: encodeWoff2(entries) };
}

/** The hmtx transform (spec 5.4): flags, the advances, then the bearing arrays flags do not leave out. */
function transformedHmtx(tables: Map<string, Uint8Array>, flags: number): Woff2Table {
  const hmtx = view(tables.get('hmtx')!);
  const metrics = view(tables.get('hhea')!).getUint16(34);
  const glyphs = view(tables.get('maxp')!).getUint16(4);
  const advances = Array.from({ length: metrics }, (_, i) => hmtx.getUint16(4 * i));
  const proportional = flags & 1 ? [] : Array.from({ length: metrics }, (_, i) => hmtx.getUint16(4 * i + 2));
  const monospaced =
    flags & 2 ? [] : Array.from({ length: glyphs - metrics }, (_, i) => hmtx.getUint16(4 * metrics + 2 * i));
  const data = concat([flags], u16(...advances, ...proportional, ...monospaced));
  return { tag: 'hmtx', data, version: 1, transformed: true, origLength: hmtx.byteLength };
}

describe('the null glyf transform and the hmtx transform (the latin WOFF 1.0 tables re-encoded)', () => {
  test.each([1, 2, 3])('hmtx transform flags %i: every table comes back as it was', (flags) => {
    const { tables, woff2 } = latinAsWoff2((reference) => transformedHmtx(reference, flags));
    const font = decode(woff2);
    expectValidSfnt(font);
    const decoded = tablesOf(font);
    // The left side bearings the transform left out are each glyph's xMin, as in this font.
    expect(tables.get('hmtx')!.length).toBe(4 * 251 + 2 * 5);
    for (const [tag, table] of tables) {
      const mine = decoded.get(tag)!.slice();
      if (tag === 'head') mine.set(table.subarray(8, 12), 8);
      expect(Buffer.from(mine).equals(Buffer.from(table)), tag).toBe(true);
    }
  });
});

// A font made by hand from the spec, for what the fontsource files lack: composite glyphs,
// instructions, explicit bounding boxes, the overlap bitmap, the rarest point encodings and the
// longer 255UInt16 forms. The expected coordinates were worked out from the spec's triplet table.
const G1_INSTRUCTIONS = Array.from({ length: 300 }, (_, i) => i & 0xff);
const G2_INSTRUCTIONS = Array.from({ length: 506 }, (_, i) => (7 * i) & 0xff);
const G3_INSTRUCTIONS = [0xb0, 0x01, 0x2c];
const G3_COMPONENTS = [
  ...u16(0x002b, 2), // words, x/y values, a scale, more components; glyph 2
  ...u16(1000, -50 & 0xffff, 0x2000), // dx, dy, scale 0.5
  ...u16(0x0102, 2), // x/y values (bytes), instructions follow; glyph 2
  10,
  -10 & 0xff,
];

function handMadeGlyf(indexFormat: number, overlap: boolean, bboxBitmap = 0x50): Uint8Array {
  const nContour = u16(0, 1, 2, 0xffff);
  const nPoints = [6, 3, 3];
  // Flags: bit 7 set = off the curve; low 7 bits pick the triplet encoding.
  const flags = [124, 0x80 | 127, 18, 19, 125, 126, 1, 21, 11, 87, 0x80 | 120, 2];
  const glyph = [
    // glyph 1: (-256,-512) (4404,768) (3375,768) (4399,768) (4415,736) (4414,738)
    ...[0x01, 0x00, 0x02, 0x00],
    ...[0x12, 0x34, 0x05, 0x00],
    5,
    0,
    ...[0x00, 0x10, 0x00, 0x20],
    ...[0x00, 0x01, 0x00, 0x02],
    ...[255, 47], // 300 instruction bytes (255UInt16: 253 + 47)
    // glyph 2: (0,100) (3,96) (53,96) | (63,116) (45,-721) (45,-981)
    100,
    0x23,
    50,
    ...[9, 19],
    ...[0x01, 0x23, 0x45],
    4,
    ...[254, 0], // 506 instruction bytes (253 * 2 + 0)
    // glyph 3, the composite: its instruction length as a word
    ...[253, 0, 3],
  ];
  // Glyphs 1 and 3 have their box in the stream (bitmap bits 0x40 and 0x10 of the first byte).
  const bbox = [bboxBitmap, 0, 0, 0, ...u16(-300 & 0xffff, -600 & 0xffff, 5000, 1000, 10, -1000 & 0xffff, 1100, 200)];
  const instructions = [...G1_INSTRUCTIONS, ...G2_INSTRUCTIONS, ...G3_INSTRUCTIONS];
  const streams = [nContour, nPoints, flags, glyph, G3_COMPONENTS, bbox, instructions];
  return concat(
    u16(0, overlap ? 1 : 0, 4, indexFormat),
    u32(...streams.map((stream) => stream.length)),
    ...streams,
    overlap ? [0x20] : [], // glyph 2 overlaps
  );
}

interface HandMade {
  readonly indexFormat: number;
  readonly hmtxFlags: number;
  readonly overlap?: boolean;
  readonly glyf?: Uint8Array;
}

function handMadeTables(options: HandMade): Woff2Table[] {
  const { indexFormat, hmtxFlags } = options;
  const head = concat(
    u32(0x00010000, 0x00010000, 0, 0x5f0f3cf5),
    u16(0, 1000),
    new Uint8Array(16),
    u16(-300 & 0xffff, -1000 & 0xffff, 5000, 1000, 0, 8, 2, indexFormat, 0),
  );
  const hhea = concat(u32(0x00010000), new Uint8Array(30), u16(2));
  const maxp = Uint8Array.from(u32(0x00005000, 4 << 16).slice(0, 6));
  // One format 4 segment, 0xFFFF to glyph 0: parseFont wants a Unicode cmap.
  const cmap = Uint8Array.from(u16(0, 1, 3, 1, 0, 12, 4, 24, 0, 2, 2, 0, 0, 0xffff, 0, 0xffff, 1, 0));
  // Advances 500 and 600; glyphs 2 and 3 bear 7 and 8 unless flag 2 says "their xMin".
  const hmtx = concat([hmtxFlags], u16(500, 600), hmtxFlags & 2 ? [] : u16(7, 8));
  const glyf = options.glyf ?? handMadeGlyf(indexFormat, options.overlap ?? false);
  return [
    { tag: 'cmap', data: cmap },
    { tag: 'glyf', data: glyf, transformed: true },
    { tag: 'head', data: head },
    { tag: 'hhea', data: hhea },
    { tag: 'hmtx', data: hmtx, version: 1, transformed: true, origLength: 2 * 4 + 2 * 2 },
    { tag: 'loca', data: new Uint8Array(0), transformed: true, origLength: 5 * (indexFormat ? 4 : 2) },
    { tag: 'maxp', data: maxp },
  ];
}

const handMadeFont = (options: HandMade) => encodeWoff2(handMadeTables(options));

const points = (...xyOn: [number, number, boolean][]) => xyOn.map(([x, y, on]) => ({ x, y, on }));

describe('a hand-made WOFF2: what the fontsource files do not use', () => {
  test.each([
    { indexFormat: 0, hmtxFlags: 1 },
    { indexFormat: 1, hmtxFlags: 3 },
  ])('loca format $indexFormat, hmtx flags $hmtxFlags', ({ indexFormat, hmtxFlags }) => {
    const font = decode(handMadeFont({ indexFormat, hmtxFlags, overlap: true }));
    expectValidSfnt(font);
    const tables = tablesOf(font);
    expect(tables.get('loca')!.length).toBe(5 * (indexFormat ? 4 : 2));
    const parsed = parseFont(font);
    expect(glyphBytes(tables, 0).length).toBe(0);
    expect(parsed.glyph(1).contours).toEqual([
      points(
        [-256, -512, true],
        [4404, 768, false],
        [3375, 768, true],
        [4399, 768, true],
        [4415, 736, true],
        [4414, 738, true],
      ),
    ]);
    const g2 = [
      points([0, 100, true], [3, 96, true], [53, 96, true]),
      points([63, 116, true], [45, -721, false], [45, -981, true]),
    ];
    expect(parsed.glyph(2).contours).toEqual(g2);
    // Glyph 3: glyph 2 at half size moved by (1000, -50), then glyph 2 moved by (10, -10).
    const scaled = g2.map((contour) => contour.map((p) => ({ x: p.x / 2 + 1000, y: p.y / 2 - 50, on: p.on })));
    const moved = g2.map((contour) => contour.map((p) => ({ x: p.x + 10, y: p.y - 10, on: p.on })));
    expect(parsed.glyph(3).contours).toEqual([...scaled, ...moved]);

    const g1 = view(glyphBytes(tables, 1));
    // The explicit box, as stored (not the points' box), then the instructions.
    expect([1, 2, 3, 4, 5].map((i) => g1.getInt16(2 * i - 2))).toEqual([1, -300, -600, 5000, 1000]);
    expect(g1.getUint16(12)).toBe(300);
    expect([...glyphBytes(tables, 1).subarray(14, 314)]).toEqual(G1_INSTRUCTIONS);
    // Glyph 2's box, computed from its points; its instructions; the overlap flag on its first point only.
    const g2bytes = glyphBytes(tables, 2);
    expect([0, 1, 2, 3, 4].map((i) => view(g2bytes).getInt16(2 * i))).toEqual([2, 0, -981, 63, 116]);
    expect(view(g2bytes).getUint16(14)).toBe(506);
    expect([...g2bytes.subarray(16, 16 + 506)]).toEqual(G2_INSTRUCTIONS);
    expect(g2bytes[16 + 506] & 0x40).toBe(0x40);
    expect(glyphBytes(tables, 1)[314] & 0x40).toBe(0);
    // The composite: its box, its components as stored, its instructions.
    const g3 = glyphBytes(tables, 3);
    expect([...g3.subarray(0, 10 + G3_COMPONENTS.length + 2 + 3)]).toEqual([
      ...u16(0xffff, 10, -1000 & 0xffff, 1100, 200),
      ...G3_COMPONENTS,
      ...u16(3),
      ...G3_INSTRUCTIONS,
    ]);
    // Left side bearings: xMin of glyphs 0 and 1 (0 for the empty one, the explicit box's for
    // glyph 1); then 7 and 8 as stored, or with flag 2 the xMins of glyphs 2 and 3.
    const hmtx = view(tables.get('hmtx')!);
    const bearings = hmtxFlags & 2 ? [0, 10] : [7, 8];
    expect([hmtx.getUint16(0), hmtx.getInt16(2), hmtx.getUint16(4), hmtx.getInt16(6)]).toEqual([500, 0, 600, -300]);
    expect([hmtx.getInt16(8), hmtx.getInt16(10)]).toEqual(bearings);
  });
});

describe('a malformed file throws, saying what is wrong', () => {
  const latin = read('noto-sans-sc-latin-400-normal.woff2');
  const plain = { indexFormat: 0, hmtxFlags: 1 };
  const withLength = (bytes: Uint8Array) => {
    const copy = bytes.slice();
    view(copy).setUint32(8, copy.length);
    return copy;
  };
  /** The hand-made font with its first table's origLength written as these bytes. */
  const origLengthAs = (origLengthBytes: number[]) =>
    encodeWoff2(handMadeTables(plain).map((table, i) => (i === 0 ? { ...table, origLengthBytes } : table)));

  test('the hand-made font itself decodes', () => {
    expect(() => decode(handMadeFont(plain))).not.toThrow();
  });

  test('a truncated file', () => {
    expect(() => decode(latin.subarray(0, latin.length - 100))).toThrow(
      /the header says 13304 bytes, the file has 13204/,
    );
    expect(() => decode(latin.subarray(0, 30))).toThrow(/the file ends early/);
    expect(() => decode(withLength(latin.subarray(0, 300)))).toThrow(/the compressed tables lie outside the file/);
    expect(() => decode(withLength(latin.subarray(0, 60)))).toThrow(/the file ends early/);
  });

  test('a bad signature, and a font collection', () => {
    const woff1 = latin.slice();
    woff1[3] = 0x46; // 'wOFF'
    expect(() => decode(woff1)).toThrow(/no 'wOF2' signature/);
    const collection = latin.slice();
    view(collection).setUint32(4, 0x74746366);
    expect(() => decode(collection)).toThrow(/font collections \(ttcf\) are not supported/);
  });

  test('a bad UIntBase128: a leading zero, more than 5 bytes, over 32 bits', () => {
    expect(() => decode(origLengthAs([0x80, 0x24]))).toThrow(/a UIntBase128 number has a leading zero/);
    expect(() => decode(origLengthAs([0x81, 0x80, 0x80, 0x80, 0x80, 0x24]))).toThrow(/longer than 5 bytes/);
    expect(() => decode(origLengthAs([0x90, 0x80, 0x80, 0x80, 0x00]))).toThrow(/overflows 32 bits/);
    expect(() => decode(origLengthAs([0x8f, 0xff, 0xff, 0xff, 0x7f]))).toThrow(/over the 67108864 allowed/);
  });

  test('a declared size over the limit is refused before anything is decompressed', () => {
    const asked: number[] = [];
    const spy: BrotliDecompress = (data, max) => {
      asked.push(max);
      return brotli(data, max);
    };
    expect(() => decodeWoff2(origLengthAs(base128(64 * 2 ** 20 + 1)), spy)).toThrow(
      /the font declares \d+ bytes, over the 67108864 allowed/,
    );
    expect(() => decodeWoff2(latin, spy, 10_000)).toThrow(/over the 10000 allowed/);
    expect(asked).toEqual([]);
    // Brotli is told the exact size of the tables it inflates, so it can stop a stream that lies.
    const font = decodeWoff2(latin, spy);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toBeLessThan(font.length);
    expect(() => decodeWoff2(latin, (data, max) => brotli(data, max).subarray(1))).toThrow(
      /the compressed tables hold \d+ bytes, the directory says \d+/,
    );
  });

  test('a transformed glyf whose streams run past it, or that breaks its own rules', () => {
    const glyf = handMadeGlyf(0, false);
    view(glyf).setUint32(8, 0x00100000); // the nContour stream's size
    expect(() => decode(handMadeFont({ ...plain, glyf }))).toThrow(/the transformed glyf table ends early/);
    const noBox = handMadeGlyf(0, false, 0x40);
    expect(() => decode(handMadeFont({ ...plain, glyf: noBox }))).toThrow(/composite glyph 3 has no bounding box/);
    const longLoca = handMadeGlyf(1, false);
    expect(() => decode(handMadeFont({ ...plain, glyf: longLoca }))).toThrow(/loca format differs from head's/);
  });

  test('an unknown transform version', () => {
    const tables = handMadeTables(plain).map((table) => (table.tag === 'cmap' ? { ...table, version: 2 } : table));
    expect(() => decode(encodeWoff2(tables))).toThrow(/table 'cmap' uses unknown transform version 2/);
  });
});
