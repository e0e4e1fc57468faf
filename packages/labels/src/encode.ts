import { deflateSync, inflateSync } from 'fflate';
import { sha256 } from 'js-sha256';
import { COLOUR_TYPES, type ColourType } from './model/colours';
import { type Padding, packInto, packLayout, unpack } from './pack';
import type { IndexImage } from './quantise';

export const IMAGE_MAGIC = 0xe5;
export const IMAGE_FORMAT_VERSION = 1;
export const HEADER_BYTES = 14;

export type Compression = 'raw' | 'deflate';

/** The geometry and encoding a packed image's header records. */
export interface ImageHeader {
  readonly compression: Compression;
  readonly colourType: ColourType;
  readonly width: number;
  readonly height: number;
  readonly wext: number;
  readonly hexit: number;
  /** Length of the packed planes before compression. */
  readonly packedLength: number;
}

/** What the server sends a tag: header + payload, with the hash of what the tag will show. */
export interface TagImage {
  readonly bytes: Uint8Array;
  readonly header: ImageHeader;
  /** SHA-256 (hex) of the geometry and the packed planes: equal hashes, equal pictures on the tag. */
  readonly hash: string;
  readonly packedLength: number;
}

function writeHeader(h: ImageHeader): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES);
  const view = new DataView(out.buffer);
  out[0] = IMAGE_MAGIC;
  out[1] = IMAGE_FORMAT_VERSION;
  out[2] = h.compression === 'deflate' ? 1 : 0;
  out[3] = COLOUR_TYPES.indexOf(h.colourType);
  view.setUint16(4, h.width, true);
  view.setUint16(6, h.height, true);
  out[8] = h.wext;
  out[9] = h.hexit;
  view.setUint32(10, h.packedLength, true);
  return out;
}

export function readHeader(bytes: Uint8Array): ImageHeader {
  if (bytes.length < HEADER_BYTES || bytes[0] !== IMAGE_MAGIC) throw new RangeError('not a packed label image');
  if (bytes[1] !== IMAGE_FORMAT_VERSION) throw new RangeError(`unknown packed image version ${bytes[1]}`);
  if (bytes[2] > 1) throw new RangeError(`unknown compression ${bytes[2]}`);
  const colourType = COLOUR_TYPES[bytes[3]];
  if (colourType === undefined) throw new RangeError(`unknown colour type ${bytes[3]}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    compression: bytes[2] === 1 ? 'deflate' : 'raw',
    colourType,
    width: view.getUint16(4, true),
    height: view.getUint16(6, true),
    wext: bytes[8],
    hexit: bytes[9],
    packedLength: view.getUint32(10, true),
  };
}

/** SHA-256 as lower-case hex; js-sha256 by default, so a browser computes the same hash. */
export type Sha256 = (data: Uint8Array) => string;

const jsSha256: Sha256 = (data) => sha256.hex(data);

/** Hash of a packed image with its geometry (the header without the compression byte). */
export function contentHash(
  packed: Uint8Array,
  header: Omit<ImageHeader, 'compression'>,
  hash: Sha256 = jsSha256,
): string {
  const input = new Uint8Array(HEADER_BYTES + packed.length);
  input.set(writeHeader({ ...header, compression: 'raw' }), 0);
  input.set(packed, HEADER_BYTES);
  return hash(input);
}

/**
 * Packs, compresses and hashes an index image (in panel orientation) for a tag. The payload is
 * raw deflate (RFC 1951) when that is smaller than the packed planes, else the planes themselves.
 */
export interface EncodeOptions {
  /**
   * Raw deflate (RFC 1951) to use instead of fflate's, e.g. node:zlib's deflateRawSync on a server
   * (several times faster). Any conforming deflater works: the decoder only inflates.
   */
  readonly deflate?: (data: Uint8Array) => Uint8Array;
  /** SHA-256 to use instead of js-sha256 (node:crypto on a server); must give the same hex. */
  readonly sha256?: Sha256;
}

const fflateDeflate = (data: Uint8Array) => deflateSync(data, { level: 6 });

export function encodeTagImage(image: IndexImage, padding: Padding, options: EncodeOptions = {}): TagImage {
  if (padding.wext > 255 || padding.hexit > 255) throw new RangeError('wext and hexit fit one byte each');
  if (image.width > 0xffff || image.height > 0xffff) throw new RangeError('image too large');
  // The planes are packed behind a raw header in one buffer: that is what the hash covers, and
  // the whole encoding when deflate does not make it smaller.
  const { byteLength } = packLayout(image.colourType, image.width, image.height, padding);
  const framed = new Uint8Array(HEADER_BYTES + byteLength);
  const packed = packInto(image, padding, framed.subarray(HEADER_BYTES));
  const deflated = (options.deflate ?? fflateDeflate)(packed);
  const compression: Compression = deflated.length < packed.length ? 'deflate' : 'raw';
  const header: ImageHeader = {
    compression,
    colourType: image.colourType,
    width: image.width,
    height: image.height,
    wext: padding.wext,
    hexit: padding.hexit,
    packedLength: packed.length,
  };
  framed.set(writeHeader({ ...header, compression: 'raw' }), 0);
  const hash = (options.sha256 ?? jsSha256)(framed);
  if (compression === 'raw') return { bytes: framed, header, hash, packedLength: packed.length };
  const bytes = new Uint8Array(HEADER_BYTES + deflated.length);
  bytes.set(writeHeader(header), 0);
  bytes.set(deflated, HEADER_BYTES);
  return { bytes, header, hash, packedLength: packed.length };
}

/** The packed planes inside an encoded image (decompressed when needed), checked against the header. */
export function decodePacked(bytes: Uint8Array): { header: ImageHeader; packed: Uint8Array } {
  const header = readHeader(bytes);
  const payload = bytes.subarray(HEADER_BYTES);
  const packed = header.compression === 'deflate' ? inflateSync(payload) : payload.slice();
  const expected = packLayout(header.colourType, header.width, header.height, header).byteLength;
  if (packed.length !== header.packedLength || packed.length !== expected) {
    throw new RangeError(`packed image is ${packed.length} bytes; the header says ${header.packedLength}`);
  }
  return { header, packed };
}

/** Encoded bytes back to the index image: the exact inverse of `encodeTagImage`. */
export function decodeTagImage(bytes: Uint8Array): IndexImage {
  const { header, packed } = decodePacked(bytes);
  return unpack(packed, header, header);
}
