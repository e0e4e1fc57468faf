import { createCanvas, loadImage } from '@napi-rs/canvas';

export type RasterType = 'image/png' | 'image/jpeg';

/** The image type by its first bytes; the file name and the declared type are not trusted. */
export function imageType(bytes: Uint8Array): RasterType | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

/**
 * Width and height as the file's header declares them, read before anything is decoded, so a
 * small file declaring a huge picture (a decompression bomb) is refused without allocating it.
 * Null when the header is not there or not readable.
 */
export function declaredSize(bytes: Buffer, type: RasterType): { width: number; height: number } | null {
  if (type === 'image/png') {
    // Signature (8), IHDR length (4) and type (4), then width and height.
    if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  // JPEG: walk the segments to the first start-of-frame marker (C0–CF except C4, C8, CC).
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}

export interface Reencoded {
  type: RasterType;
  bytes: Buffer;
  width: number;
  height: number;
}

/**
 * Decodes an uploaded PNG or JPEG and encodes it again, scaled to fit `maxSide`: what is served
 * is pixels we drew, never the uploaded bytes (which could carry HTML, scripts or a polyglot after
 * a valid signature). Null when the bytes are not a decodable image within `maxDeclared` pixels
 * a side.
 */
export async function reencodeImage(bytes: Buffer, maxSide: number, maxDeclared = 8192): Promise<Reencoded | null> {
  const type = imageType(bytes);
  if (!type) return null;
  const size = declaredSize(bytes, type);
  if (!size || size.width < 1 || size.height < 1 || size.width > maxDeclared || size.height > maxDeclared) return null;
  let image: Awaited<ReturnType<typeof loadImage>>;
  try {
    image = await loadImage(bytes);
  } catch {
    return null;
  }
  if (image.width !== size.width || image.height !== size.height) return null;
  const scale = Math.min(1, maxSide / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0, width, height);
  const out = type === 'image/png' ? canvas.toBuffer('image/png') : canvas.toBuffer('image/jpeg', 90);
  return { type, bytes: out, width, height };
}
