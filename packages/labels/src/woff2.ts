/**
 * WOFF2 to sfnt: turns an uploaded WOFF2 font back into the plain TrueType/OpenType file it was
 * made from, so the server converts a tenant's brand font once, at upload, and from then on
 * stores and draws it like a .ttf. Written from the W3C WOFF File Format 2.0 recommendation.
 *
 * Pure (no Node module): the caller passes Brotli (on Node, `zlib.brotliDecompressSync`). Every
 * length and offset is checked before use, and malformed input throws a Woff2Error whose message
 * says what is wrong; the server words any throw as "damaged font".
 *
 * Font collections ('ttcf') are refused. Extended metadata and private data are dropped: an sfnt
 * has no place for them.
 */

/** Brotli decompression; an implementation should refuse output longer than maxOutputLength. */
export type BrotliDecompress = (data: Uint8Array, maxOutputLength: number) => Uint8Array;

/** The most a WOFF2 file may declare its font to be, unless the caller sets its own limit. */
export const WOFF2_MAX_FONT_BYTES = 64 * 1024 * 1024;

export class Woff2Error extends Error {
  constructor(message: string) {
    super(`WOFF2: ${message}`);
    this.name = 'Woff2Error';
  }
}

/**
 * Decodes a WOFF2 file to the sfnt bytes it stands for (tables in tag order, checksums and
 * head.checkSumAdjustment computed). Refuses a file whose tables declare more than maxFontBytes
 * before decompressing anything, so a small file cannot make the server inflate gigabytes.
 */
export function decodeWoff2(
  bytes: Uint8Array,
  brotliDecompress: BrotliDecompress,
  maxFontBytes: number = WOFF2_MAX_FONT_BYTES,
): Uint8Array {
  const file = new Reader(bytes, 'the file');
  const header = readHeader(file, bytes.length);
  const entries = readDirectory(file, header.numTables);
  checkTransforms(entries);
  const declared = entries.reduce((sum, entry) => sum + entry.origLength, 0);
  const streamLength = entries.reduce((sum, entry) => sum + entry.streamLength, 0);
  if (declared > maxFontBytes || streamLength > maxFontBytes) {
    throw new Woff2Error(
      `the font declares ${Math.max(declared, streamLength)} bytes, over the ${maxFontBytes} allowed`,
    );
  }
  checkBlocks(header, file.offset, bytes.length);
  const compressed = bytes.subarray(file.offset, file.offset + header.totalCompressedSize);
  const stream = brotliDecompress(compressed, Math.max(1, streamLength));
  if (stream.length !== streamLength) {
    throw new Woff2Error(`the compressed tables hold ${stream.length} bytes, the directory says ${streamLength}`);
  }
  const tables = rebuildTables(entries, stream);
  const font = writeSfnt(header.flavor, tables);
  if (font.length > maxFontBytes)
    throw new Woff2Error(`the font is ${font.length} bytes, over the ${maxFontBytes} allowed`);
  return font;
}

// ---------------------------------------------------------------------------------------------
// Reading

/** A bounds-checked big-endian cursor; running past the end is a malformed file, never a crash. */
class Reader {
  private at = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly what: string,
  ) {}

  get offset(): number {
    return this.at;
  }

  private need(count: number): number {
    const at = this.at;
    if (at + count > this.bytes.length) throw new Woff2Error(`${this.what} ends early`);
    this.at = at + count;
    return at;
  }

  u8(): number {
    return this.bytes[this.need(1)];
  }

  u16(): number {
    const at = this.need(2);
    return (this.bytes[at] << 8) | this.bytes[at + 1];
  }

  i16(): number {
    return (this.u16() << 16) >> 16;
  }

  u32(): number {
    const at = this.need(4);
    return ((this.bytes[at] << 24) | (this.bytes[at + 1] << 16) | (this.bytes[at + 2] << 8) | this.bytes[at + 3]) >>> 0;
  }

  take(count: number): Uint8Array {
    const at = this.need(count);
    return this.bytes.subarray(at, at + count);
  }

  /** UIntBase128: 7 bits a byte, high bit "more follows"; no leading zero byte, at most 5 bytes, fits 32 bits. */
  base128(): number {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = this.u8();
      if (i === 0 && byte === 0x80) throw new Woff2Error(`${this.what}: a UIntBase128 number has a leading zero`);
      if (value > 0x1ffffff) throw new Woff2Error(`${this.what}: a UIntBase128 number overflows 32 bits`);
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) return value;
    }
    throw new Woff2Error(`${this.what}: a UIntBase128 number is longer than 5 bytes`);
  }

  /** 255UInt16: one byte below 253, else a marker byte and one or two more. */
  u255(): number {
    const code = this.u8();
    if (code === 253) return this.u16();
    if (code === 254) return 253 * 2 + this.u8();
    if (code === 255) return 253 + this.u8();
    return code;
  }
}

interface Header {
  readonly flavor: number;
  readonly numTables: number;
  readonly totalCompressedSize: number;
  readonly metaOffset: number;
  readonly metaLength: number;
  readonly privOffset: number;
  readonly privLength: number;
}

const SIGNATURE = 0x774f4632; // 'wOF2'
const TTCF = 0x74746366; // 'ttcf'

function readHeader(file: Reader, fileLength: number): Header {
  if (file.u32() !== SIGNATURE) throw new Woff2Error("not a WOFF2 file (no 'wOF2' signature)");
  const flavor = file.u32();
  if (flavor === TTCF) throw new Woff2Error('font collections (ttcf) are not supported');
  const length = file.u32();
  const numTables = file.u16();
  file.u16(); // reserved
  file.u32(); // totalSfntSize: a hint only, the tables' lengths are what count
  const totalCompressedSize = file.u32();
  file.u32(); // major and minor version of the font, not of the format
  const metaOffset = file.u32();
  const metaLength = file.u32();
  file.u32(); // metaOrigLength
  const privOffset = file.u32();
  const privLength = file.u32();
  if (length !== fileLength) throw new Woff2Error(`the header says ${length} bytes, the file has ${fileLength}`);
  if (numTables === 0) throw new Woff2Error('the font has no tables');
  return { flavor, numTables, totalCompressedSize, metaOffset, metaLength, privOffset, privLength };
}

/** The compressed tables, then the optional metadata and private blocks, all inside the file. */
function checkBlocks(header: Header, dataOffset: number, fileLength: number): void {
  const inside = (offset: number, length: number) => offset + length <= fileLength;
  if (header.totalCompressedSize === 0 || !inside(dataOffset, header.totalCompressedSize)) {
    throw new Woff2Error('the compressed tables lie outside the file');
  }
  if (header.metaLength > 0 && (header.metaOffset < dataOffset || !inside(header.metaOffset, header.metaLength))) {
    throw new Woff2Error('the metadata block lies outside the file');
  }
  if (header.privLength > 0 && (header.privOffset < dataOffset || !inside(header.privOffset, header.privLength))) {
    throw new Woff2Error('the private data block lies outside the file');
  }
}

/** Tags a directory entry names by index (flags bits 0-5); 63 means the tag follows. */
// biome-ignore format: the spec's table, 14 a row
const KNOWN_TAGS = [
  'cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep', 'CFF ',
  'VORG', 'EBDT', 'EBLC', 'gasp', 'hdmx', 'kern', 'LTSH', 'PCLT', 'VDMX', 'vhea', 'vmtx', 'BASE', 'GDEF', 'GPOS',
  'GSUB', 'EBSC', 'JSTF', 'MATH', 'CBDT', 'CBLC', 'COLR', 'CPAL', 'SVG ', 'sbix', 'acnt', 'avar', 'bdat', 'bloc',
  'bsln', 'cvar', 'fdsc', 'feat', 'fmtx', 'fvar', 'gvar', 'hsty', 'just', 'lcar', 'mort', 'morx', 'opbd', 'prop',
  'trak', 'Zapf', 'Silf', 'Glat', 'Gloc', 'Feat', 'Sill',
];

interface Entry {
  readonly tag: string;
  readonly origLength: number;
  /** Whether the table is stored transformed (glyf and loca version 0, hmtx version 1). */
  readonly transformed: boolean;
  /** Its bytes in the decompressed stream: transformLength when transformed, else origLength. */
  readonly streamLength: number;
}

function readDirectory(file: Reader, numTables: number): Entry[] {
  const entries: Entry[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < numTables; i++) {
    const flags = file.u8();
    const index = flags & 0x3f;
    const tag = index === 63 ? tagOf(file.take(4)) : KNOWN_TAGS[index];
    if (seen.has(tag)) throw new Woff2Error(`table '${tag}' appears twice`);
    seen.add(tag);
    const version = flags >> 6;
    const origLength = file.base128();
    const transformed = isTransformed(tag, version);
    const streamLength = transformed ? file.base128() : origLength;
    entries.push({ tag, origLength, transformed, streamLength });
  }
  return entries;
}

function tagOf(bytes: Uint8Array): string {
  return String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
}

/** glyf and loca: version 0 is the transform, 3 the null transform; others: 0 null, hmtx 1 transform. */
function isTransformed(tag: string, version: number): boolean {
  if (tag === 'glyf' || tag === 'loca') {
    if (version === 0) return true;
    if (version === 3) return false;
  } else if (version === 0) return false;
  else if (tag === 'hmtx' && version === 1) return true;
  throw new Woff2Error(`table '${tag}' uses unknown transform version ${version}`);
}

function checkTransforms(entries: readonly Entry[]): void {
  const glyf = entries.find((entry) => entry.tag === 'glyf');
  const loca = entries.find((entry) => entry.tag === 'loca');
  if (!entries.some((entry) => entry.tag === 'head')) throw new Woff2Error('the font has no head table');
  if (!glyf !== !loca || (glyf && loca && glyf.transformed !== loca.transformed)) {
    throw new Woff2Error('glyf and loca must come together, both transformed or neither');
  }
  if (loca?.transformed && loca.streamLength !== 0) throw new Woff2Error('a transformed loca must have no data');
  const hmtx = entries.find((entry) => entry.tag === 'hmtx');
  if (hmtx?.transformed && !glyf) throw new Woff2Error('a transformed hmtx needs a glyf table');
}

// ---------------------------------------------------------------------------------------------
// Rebuilding the tables

function rebuildTables(entries: readonly Entry[], stream: Uint8Array): Map<string, Uint8Array> {
  const tables = new Map<string, Uint8Array>();
  let at = 0;
  for (const entry of entries) {
    tables.set(entry.tag, stream.subarray(at, at + entry.streamLength));
    at += entry.streamLength;
  }
  const head = tables.get('head')!;
  if (head.length < 54) throw new Woff2Error('the head table is too short');
  const glyf = entries.find((entry) => entry.tag === 'glyf');
  if (glyf?.transformed) {
    const loca = entries.find((entry) => entry.tag === 'loca')!;
    const rebuilt = rebuildGlyf(tables.get('glyf')!, readI16(head, 50));
    if (rebuilt.loca.length !== loca.origLength) {
      throw new Woff2Error(`loca should be ${loca.origLength} bytes, the glyphs make ${rebuilt.loca.length}`);
    }
    tables.set('glyf', rebuilt.glyf);
    tables.set('loca', rebuilt.loca);
  }
  const hmtx = entries.find((entry) => entry.tag === 'hmtx');
  if (hmtx?.transformed) tables.set('hmtx', rebuildHmtx(tables, hmtx.origLength));
  return tables;
}

function readU16(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 8) | bytes[at + 1];
}

function readI16(bytes: Uint8Array, at: number): number {
  return (readU16(bytes, at) << 16) >> 16;
}

/** A growable big-endian byte buffer for the rebuilt tables and the font. */
class Writer {
  private bytes: Uint8Array;
  length = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(16, capacity));
  }

  private room(count: number): void {
    if (this.length + count <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.length + count, this.bytes.length * 2));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  u8(value: number): void {
    this.room(1);
    this.bytes[this.length++] = value;
  }

  u16(value: number): void {
    this.room(2);
    this.bytes[this.length++] = (value >> 8) & 0xff;
    this.bytes[this.length++] = value & 0xff;
  }

  u32(value: number): void {
    this.u16(value >>> 16);
    this.u16(value & 0xffff);
  }

  append(data: Uint8Array): void {
    this.room(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
  }

  /** Zero bytes up to the next multiple of `unit`. */
  pad(unit: number): void {
    while (this.length % unit) this.u8(0);
  }

  result(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

// glyf: the transformed table (spec 5.1) is a header, seven streams and an optional bitmap.

interface GlyfStreams {
  readonly nContour: Reader;
  readonly nPoints: Reader;
  readonly flag: Reader;
  readonly glyph: Reader;
  readonly composite: Reader;
  readonly bbox: Reader;
  readonly bboxBitmap: Uint8Array;
  readonly instruction: Reader;
  readonly overlapBitmap: Uint8Array | null;
}

const GLYF_HEADER_BYTES = 36;

function glyfStreams(table: Uint8Array): { numGlyphs: number; indexFormat: number; streams: GlyfStreams } {
  const header = new Reader(table, 'the glyf header');
  header.u16(); // reserved
  const optionFlags = header.u16();
  const numGlyphs = header.u16();
  const indexFormat = header.u16();
  const sizes = Array.from({ length: 7 }, () => header.u32());
  // The streams follow the header back to back, in the order of their sizes.
  const body = new Reader(table.subarray(GLYF_HEADER_BYTES), 'the transformed glyf table');
  const stream = (name: string, size: number) => new Reader(body.take(size), `the glyf ${name} stream`);
  const nContour = stream('nContour', sizes[0]);
  const nPoints = stream('nPoints', sizes[1]);
  const flag = stream('flag', sizes[2]);
  const glyph = stream('glyph', sizes[3]);
  const composite = stream('composite', sizes[4]);
  const bbox = stream('bbox', sizes[5]);
  const instruction = stream('instruction', sizes[6]);
  // The bbox stream opens with a bitmap of the glyphs whose box it holds, 32 glyphs a word.
  const bboxBitmap = bbox.take(4 * Math.floor((numGlyphs + 31) / 32));
  const overlapBitmap = optionFlags & 1 ? body.take(Math.floor((numGlyphs + 7) / 8)) : null;
  return {
    numGlyphs,
    indexFormat,
    streams: { nContour, nPoints, flag, glyph, composite, bbox, bboxBitmap, instruction, overlapBitmap },
  };
}

/** Bit `id` of a glyph bitmap, glyph 0 being the first byte's most significant bit. */
function bitSet(bitmap: Uint8Array, id: number): boolean {
  return (bitmap[id >> 3] & (0x80 >> (id & 7))) !== 0;
}

function rebuildGlyf(table: Uint8Array, headIndexFormat: number): { glyf: Uint8Array; loca: Uint8Array } {
  const { numGlyphs, indexFormat, streams } = glyfStreams(table);
  if (indexFormat > 1) throw new Woff2Error(`the glyf table gives unknown loca format ${indexFormat}`);
  if (indexFormat !== headIndexFormat) throw new Woff2Error("the glyf table's loca format differs from head's");
  const glyf = new Writer(table.length * 2);
  const offsets: number[] = [0];
  for (let id = 0; id < numGlyphs; id++) {
    writeGlyph(glyf, id, streams);
    // Short loca stores offset / 2, so each glyph starts on an even offset; long loca gets 4.
    glyf.pad(indexFormat === 0 ? 2 : 4);
    offsets.push(glyf.length);
  }
  if (indexFormat === 0 && glyf.length > 0x1fffe) throw new Woff2Error('the glyphs overflow a short loca table');
  const loca = new Writer((numGlyphs + 1) * 4);
  for (const offset of offsets) {
    if (indexFormat === 0) loca.u16(offset / 2);
    else loca.u32(offset);
  }
  return { glyf: glyf.result(), loca: loca.result() };
}

function writeGlyph(out: Writer, id: number, streams: GlyfStreams): void {
  const contours = streams.nContour.i16();
  const explicitBox = bitSet(streams.bboxBitmap, id);
  if (contours === 0) {
    if (explicitBox) throw new Woff2Error(`empty glyph ${id} has a bounding box`);
  } else if (contours > 0) {
    writeSimpleGlyph(out, id, contours, explicitBox, streams);
  } else if (contours === -1) {
    if (!explicitBox) throw new Woff2Error(`composite glyph ${id} has no bounding box`);
    writeCompositeGlyph(out, streams);
  } else {
    throw new Woff2Error(`glyph ${id} has ${contours} contours`);
  }
}

function readBox(bbox: Reader): [number, number, number, number] {
  return [bbox.i16(), bbox.i16(), bbox.i16(), bbox.i16()];
}

function writeSimpleGlyph(out: Writer, id: number, contours: number, explicitBox: boolean, streams: GlyfStreams): void {
  const ends: number[] = [];
  let points = 0;
  for (let i = 0; i < contours; i++) {
    points += streams.nPoints.u255();
    if (points === 0) throw new Woff2Error(`glyph ${id} starts with an empty contour`);
    ends.push(points - 1);
  }
  if (points > 0x10000) throw new Woff2Error(`glyph ${id} has more points than a glyph can hold`);
  const outline = readPoints(streams, points);
  const instructions = streams.instruction.take(streams.glyph.u255());
  const box = explicitBox ? readBox(streams.bbox) : boxOf(outline);
  out.u16(contours);
  for (const value of box) out.u16(value & 0xffff);
  for (const end of ends) out.u16(end);
  out.u16(instructions.length);
  out.append(instructions);
  const overlap = streams.overlapBitmap !== null && bitSet(streams.overlapBitmap, id);
  writeOutline(out, outline, overlap);
}

// glyf flag bits of a simple glyph's points.
const ON_CURVE = 0x01;
const X_SHORT = 0x02;
const Y_SHORT = 0x04;
const REPEAT = 0x08;
const X_SAME_OR_POSITIVE = 0x10;
const Y_SAME_OR_POSITIVE = 0x20;
const OVERLAP_SIMPLE = 0x40;

interface Points {
  /** Each point's glyf flag so far: ON_CURVE or 0. */
  readonly flags: Uint8Array;
  readonly dx: Int32Array;
  readonly dy: Int32Array;
}

/** Each point's on-curve bit (flag stream) and coordinate deltas (triplets, glyph stream). */
function readPoints(streams: GlyfStreams, count: number): Points {
  const points = { flags: new Uint8Array(count), dx: new Int32Array(count), dy: new Int32Array(count) };
  for (let i = 0; i < count; i++) {
    const flag = streams.flag.u8();
    points.flags[i] = flag & 0x80 ? 0 : ON_CURVE;
    readTriplet(flag & 0x7f, streams.glyph, points, i);
    if (Math.abs(points.dx[i]) > 0x7fff || Math.abs(points.dy[i]) > 0x7fff)
      throw new Woff2Error('a point moves too far');
  }
  return points;
}

const signed = (value: number, positive: number) => (positive ? value : -value);

/**
 * Point i's deltas from its triplet encoding (spec 5.2): the flag's low 7 bits pick how many
 * bytes follow, how they split between x and y, the base added to each and their signs.
 */
function readTriplet(flag: number, glyph: Reader, { dx, dy }: Points, i: number): void {
  if (flag < 10) {
    dy[i] = signed(((flag & 0x0e) << 7) + glyph.u8(), flag & 1);
  } else if (flag < 20) {
    dx[i] = signed((((flag - 10) & 0x0e) << 7) + glyph.u8(), flag & 1);
  } else if (flag < 84) {
    const code = flag - 20;
    const both = glyph.u8();
    dx[i] = signed(1 + (code & 0x30) + (both >> 4), code & 1);
    dy[i] = signed(1 + ((code & 0x0c) << 2) + (both & 0x0f), code & 2);
  } else if (flag < 120) {
    const code = flag - 84;
    dx[i] = signed(1 + (Math.floor(code / 12) << 8) + glyph.u8(), code & 1);
    dy[i] = signed(1 + (((code % 12) >> 2) << 8) + glyph.u8(), code & 2);
  } else if (flag < 124) {
    const code = flag - 120;
    const [a, b, c] = [glyph.u8(), glyph.u8(), glyph.u8()];
    dx[i] = signed((a << 4) | (b >> 4), code & 1);
    dy[i] = signed(((b & 0x0f) << 8) | c, code & 2);
  } else {
    const code = flag - 124;
    dx[i] = signed(glyph.u16(), code & 1);
    dy[i] = signed(glyph.u16(), code & 2);
  }
}

/** The bounding box of a simple glyph whose file left it out: the extremes of its points. */
function boxOf({ dx, dy }: Points): [number, number, number, number] {
  if (dx.length === 0) return [0, 0, 0, 0];
  let [x, y] = [0, 0];
  let [xMin, yMin, xMax, yMax] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -Infinity, -Infinity];
  for (let i = 0; i < dx.length; i++) {
    x += dx[i];
    y += dy[i];
    xMin = Math.min(xMin, x);
    yMin = Math.min(yMin, y);
    xMax = Math.max(xMax, x);
    yMax = Math.max(yMax, y);
  }
  return [xMin, yMin, xMax, yMax];
}

/** A coordinate's flag bits: none when unchanged, a byte and its sign when small, else a word. */
function deltaFlag(delta: number, short: number, sameOrPositive: number): number {
  if (delta === 0) return sameOrPositive;
  if (delta > -256 && delta < 256) return short | (delta > 0 ? sameOrPositive : 0);
  return 0;
}

/** The flags (runs repeated), then x then y deltas, as TrueType's glyf stores a simple outline. */
function writeOutline(out: Writer, { flags, dx, dy }: Points, overlap: boolean): void {
  for (let i = 0; i < flags.length; i++) {
    flags[i] |= deltaFlag(dx[i], X_SHORT, X_SAME_OR_POSITIVE) | deltaFlag(dy[i], Y_SHORT, Y_SAME_OR_POSITIVE);
  }
  if (overlap && flags.length > 0) flags[0] |= OVERLAP_SIMPLE;
  for (let i = 0; i < flags.length; ) {
    let run = 1;
    while (i + run < flags.length && flags[i + run] === flags[i] && run < 256) run++;
    if (run > 1) {
      out.u8(flags[i] | REPEAT);
      out.u8(run - 1);
    } else out.u8(flags[i]);
    i += run;
  }
  writeDeltas(out, flags, dx, X_SHORT, X_SAME_OR_POSITIVE);
  writeDeltas(out, flags, dy, Y_SHORT, Y_SAME_OR_POSITIVE);
}

function writeDeltas(out: Writer, flags: Uint8Array, deltas: Int32Array, short: number, same: number): void {
  for (let i = 0; i < deltas.length; i++) {
    if (flags[i] & short) out.u8(Math.abs(deltas[i]));
    else if (!(flags[i] & same)) out.u16(deltas[i] & 0xffff);
  }
}

const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;
const WE_HAVE_INSTRUCTIONS = 0x0100;

/** A composite glyph: its box, its components as stored, then its instructions if it has any. */
function writeCompositeGlyph(out: Writer, streams: GlyfStreams): void {
  const box = readBox(streams.bbox);
  const components = new Writer(64);
  let instructed = false;
  for (let more = true; more; ) {
    const flags = streams.composite.u16();
    components.u16(flags);
    const size =
      2 +
      (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2) +
      (flags & WE_HAVE_A_SCALE ? 2 : 0) +
      (flags & WE_HAVE_AN_X_AND_Y_SCALE ? 4 : 0) +
      (flags & WE_HAVE_A_TWO_BY_TWO ? 8 : 0);
    components.append(streams.composite.take(size));
    if (flags & WE_HAVE_INSTRUCTIONS) instructed = true;
    more = (flags & MORE_COMPONENTS) !== 0;
  }
  out.u16(0xffff);
  for (const value of box) out.u16(value & 0xffff);
  out.append(components.result());
  if (instructed) {
    const instructions = streams.instruction.take(streams.glyph.u255());
    out.u16(instructions.length);
    out.append(instructions);
  }
}

// hmtx: the transformed table (spec 5.4) leaves out left side bearings equal to the glyph's xMin.

function rebuildHmtx(tables: Map<string, Uint8Array>, origLength: number): Uint8Array {
  const hhea = tables.get('hhea');
  const maxp = tables.get('maxp');
  if (!hhea || hhea.length < 36 || !maxp || maxp.length < 6) {
    throw new Woff2Error('a transformed hmtx needs the hhea and maxp tables');
  }
  const metrics = readU16(hhea, 34);
  const numGlyphs = readU16(maxp, 4);
  if (metrics === 0 || metrics > numGlyphs)
    throw new Woff2Error(`hhea gives ${metrics} metrics for ${numGlyphs} glyphs`);
  if (origLength !== 4 * metrics + 2 * (numGlyphs - metrics)) {
    throw new Woff2Error(
      `hmtx should be ${4 * metrics + 2 * (numGlyphs - metrics)} bytes, the directory says ${origLength}`,
    );
  }
  const source = new Reader(tables.get('hmtx')!, 'the transformed hmtx table');
  const flags = source.u8();
  if (flags & 0xfc || !(flags & 3)) throw new Woff2Error(`the hmtx transform has flags ${flags}`);
  const advances = Array.from({ length: metrics }, () => source.u16());
  const xMins = glyphXMins(tables, numGlyphs);
  const bearings = (from: number, to: number, fromGlyphs: boolean) =>
    Array.from({ length: to - from }, (_, i) => (fromGlyphs ? xMins[from + i] : source.i16()));
  const proportional = bearings(0, metrics, (flags & 1) !== 0);
  const monospaced = bearings(metrics, numGlyphs, (flags & 2) !== 0);
  const out = new Writer(origLength);
  for (let i = 0; i < metrics; i++) {
    out.u16(advances[i]);
    out.u16(proportional[i] & 0xffff);
  }
  for (const bearing of monospaced) out.u16(bearing & 0xffff);
  return out.result();
}

/** Each glyph's xMin from the (rebuilt) glyf and loca tables; 0 for an empty glyph. */
function glyphXMins(tables: Map<string, Uint8Array>, numGlyphs: number): number[] {
  const glyf = tables.get('glyf')!;
  const loca = tables.get('loca')!;
  const long = readI16(tables.get('head')!, 50) === 1;
  if (loca.length < (numGlyphs + 1) * (long ? 4 : 2)) throw new Woff2Error('loca is too short for the glyphs');
  const offset = (id: number) =>
    long ? ((readU16(loca, 4 * id) << 16) | readU16(loca, 4 * id + 2)) >>> 0 : 2 * readU16(loca, 2 * id);
  return Array.from({ length: numGlyphs }, (_, id) => {
    const [start, end] = [offset(id), offset(id + 1)];
    if (end <= start) return 0;
    if (end > glyf.length || end - start < 10) throw new Woff2Error(`glyph ${id} lies outside glyf`);
    return readI16(glyf, start + 2);
  });
}

// ---------------------------------------------------------------------------------------------
// Writing the sfnt

/** Sums a table as big-endian 32-bit words, zero padded (OpenType's table checksum). */
function checksum(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let sum = 0;
  for (let at = from; at < to; at += 4) {
    const word = (bytes[at] << 24) | ((bytes[at + 1] ?? 0) << 16) | ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0);
    sum = (sum + (word >>> 0)) >>> 0;
  }
  return sum;
}

function writeSfnt(flavor: number, tables: Map<string, Uint8Array>): Uint8Array {
  const tags = [...tables.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const count = tags.length;
  const power = 2 ** Math.floor(Math.log2(count));
  const out = new Writer(12 + 16 * count + [...tables.values()].reduce((sum, t) => sum + t.length + 3, 0));
  out.u32(flavor);
  out.u16(count);
  out.u16(power * 16);
  out.u16(Math.log2(power));
  out.u16(count * 16 - power * 16);
  let offset = 12 + 16 * count;
  const offsets = new Map<string, number>();
  for (const tag of tags) {
    const table = tables.get(tag)!;
    // head's checksum is taken with checkSumAdjustment zeroed; it is set once the font is whole.
    const sum = tag === 'head' ? (checksum(table, 0, 8) + checksum(table, 12)) >>> 0 : checksum(table);
    for (let i = 0; i < 4; i++) out.u8(tag.charCodeAt(i));
    out.u32(sum);
    out.u32(offset);
    out.u32(table.length);
    offsets.set(tag, offset);
    offset += Math.ceil(table.length / 4) * 4;
  }
  for (const tag of tags) {
    out.append(tables.get(tag)!);
    out.pad(4);
  }
  const font = out.result();
  const head = offsets.get('head')!;
  font.fill(0, head + 8, head + 12);
  const adjustment = (0xb1b0afba - checksum(font)) >>> 0;
  font.set([adjustment >>> 24, (adjustment >> 16) & 0xff, (adjustment >> 8) & 0xff, adjustment & 0xff], head + 8);
  return font;
}
