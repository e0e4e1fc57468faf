/**
 * The two per-pixel loops of the `none` quantiser and of bit-plane packing as a tiny WebAssembly
 * module, built here from its instructions (no toolchain, no file to fetch). JavaScript pays for
 * every typed-array access (V8 re-checks the array on each one); WebAssembly reads memory
 * directly, 8 bytes at a time. The module only moves bytes and looks colours up: every ink is
 * still chosen by quantise.ts (`nearestIndex`), which fills the module's colour table, so both
 * paths give the same bytes (the tests compare them). Where WebAssembly is missing or refused
 * (a Content-Security-Policy without 'wasm-unsafe-eval'), `wasmKernel()` is null and the
 * JavaScript loops run.
 */

// Opcodes (WebAssembly core specification, binary format).
const BLOCK = 0x02;
const LOOP = 0x03;
const IF = 0x04;
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const RETURN = 0x0f;
const VOID = 0x40;
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;
const I32_LOAD = 0x28;
const I64_LOAD = 0x29;
const I32_LOAD8_U = 0x2d;
const I32_STORE8 = 0x3a;
const I32_CONST = 0x41;
const I64_CONST = 0x42;
const I32_EQZ = 0x45;
const I32_EQ = 0x46;
const I32_NE = 0x47;
const I32_GE_S = 0x4e;
const I32_GE_U = 0x4f;
const I32_GT_U = 0x4b;
const I64_EQZ = 0x50;
const I64_NE = 0x52;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_MUL = 0x6c;
const I32_AND = 0x71;
const I32_OR = 0x72;
const I32_XOR = 0x73;
const I32_SHL = 0x74;
const I32_SHR_U = 0x76;
const I64_MUL = 0x7e;
const I64_AND = 0x83;
const I64_XOR = 0x85;
const I64_SHR_U = 0x88;
const I32_WRAP_I64 = 0xa7;
const I32 = 0x7f;
const I64 = 0x7e;

function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    const byte = v & 0x7f;
    v >>>= 7;
    out.push(v === 0 ? byte : byte | 0x80);
  } while (v !== 0);
  return out;
}

function sleb(value: bigint): number[] {
  const out: number[] = [];
  let v = value;
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const i32 = (value: number) => [I32_CONST, ...sleb(BigInt(value | 0))];
const i64 = (value: bigint) => [I64_CONST, ...sleb(BigInt.asIntN(64, value))];
const get = (local: number) => [LOCAL_GET, local];
const set = (local: number) => [LOCAL_SET, local];
const tee = (local: number) => [LOCAL_TEE, local];
/** A load or store with its alignment hint (log2 bytes) and offset. */
const mem = (op: number, align: number, offset = 0) => [op, align, ...uleb(offset)];

/** Multiplier of the hash of a colour word; quantise.ts uses the same. */
export const COLOUR_HASH = 0x9e3779b1 | 0;
/** The colour table has 2^12 slots: hash >>> 20. */
export const TABLE_SHIFT = 20;
export const TABLE_SLOTS = 1 << (32 - TABLE_SHIFT);
/** Bytes of a table slot: the RGBA word (4), then the ink index + 1 (0: empty), flag 0x80 for an ink's own colour. */
export const SLOT_BYTES = 8;

const LOW_BITS = 0x0101010101010101n;
/** Moves bit 0 of byte k to bit 63 − k: the 8 bytes' low bits as one byte, byte 0 in the top bit. */
const GATHER = 0x8040201008040201n;

/**
 * scan(src, n, out, table, start) → i32. Maps pixels start… of the RGBA words at `src` to ink
 * indexes at `out` (which must hold zeros: white is 0 and not written). After a white pixel, four
 * at a time are checked; a pixel of the same colour as the last one takes its ink; any other colour is
 * looked up in the table, in its slot and then in the slot's partner (slot ^ 1: two ways, so two
 * frequent colours of one slot, or a colour and an ink, do not keep pushing each other out).
 * Returns n when done, or the first pixel whose colour the table lacks.
 */
const SCAN = (() => {
  const [src, n, out, table, start, i, w, last, lastIndex, e] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const at = [...get(src), ...get(i), ...i32(2), I32_SHL, I32_ADD];
  // 1 when slot e does not hold colour w (another colour, or empty).
  const holdsOther = [
    ...get(e),
    ...mem(I32_LOAD, 2),
    ...get(w),
    I32_NE,
    ...get(e),
    ...mem(I32_LOAD8_U, 0, 4),
    I32_EQZ,
    I32_OR,
  ];
  return [
    ...[1, 5, I32], // locals 5–9: i, w, last, lastIndex, e
    ...get(start),
    ...set(i),
    ...i32(-1),
    ...set(last),
    ...[BLOCK, VOID, LOOP, VOID],
    ...[...get(i), ...get(n), I32_GE_U, BR_IF, 1],
    // A white pixel (all bits set), then as many groups of four white pixels as follow.
    ...[...at, ...mem(I32_LOAD, 2), ...tee(w), ...i32(-1), I32_EQ, IF, VOID],
    ...[...get(i), ...i32(1), I32_ADD, ...set(i)],
    ...[BLOCK, VOID, LOOP, VOID],
    ...[...get(i), ...i32(4), I32_ADD, ...get(n), I32_GT_U, BR_IF, 1],
    ...[
      ...at,
      ...tee(e),
      ...mem(I64_LOAD, 2),
      ...get(e),
      ...mem(I64_LOAD, 2, 8),
      I64_AND,
      ...i64(-1n),
      I64_NE,
      BR_IF,
      1,
    ],
    ...[...get(i), ...i32(4), I32_ADD, ...set(i), BR, 0],
    ...[END, END],
    ...[BR, 1],
    END,
    ...[...get(w), ...get(last), I32_NE, IF, VOID],
    ...[...get(table), ...get(w), ...i32(COLOUR_HASH), I32_MUL, ...i32(TABLE_SHIFT), I32_SHR_U, ...i32(3), I32_SHL],
    ...[I32_ADD, ...set(e), ...holdsOther],
    ...[IF, VOID, ...get(e), ...i32(SLOT_BYTES), I32_XOR, ...set(e), ...holdsOther],
    ...[IF, VOID, ...get(i), RETURN, END],
    END,
    ...[...get(e), ...mem(I32_LOAD8_U, 0, 4), ...i32(0x7f), I32_AND, ...i32(1), I32_SUB, ...set(lastIndex)],
    ...[...get(w), ...set(last)],
    END,
    ...[...get(lastIndex), IF, VOID, ...get(out), ...get(i), I32_ADD, ...get(lastIndex), ...mem(I32_STORE8, 0), END],
    ...[...get(i), ...i32(1), I32_ADD, ...set(i), BR, 0],
    ...[END, END],
    ...get(n),
    END,
  ];
})();

/**
 * pack(index, width, height, rowBytes, second, dst). Bit-planes of an index image at `index`
 * (inks 0–2, one byte a pixel) to `dst` (zeroed by the caller): plane 0 gets index 1, the plane
 * at dst + second (second ≥ 0) index 2; first pixel in the top bit. Only whole groups of 8 pixels
 * of each row are written (the caller packs the last width % 8); all-white groups are skipped.
 */
const PACK = (() => {
  const [index, width, height, rowBytes, second, dst, y, x, row, o, full, v, up] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
  ];
  const planeByte = (ink: number, other: number) => [
    ...[...get(ink), ...get(other), ...i64(-1n), I64_XOR, I64_AND, ...i64(LOW_BITS), I64_AND],
    ...[...i64(GATHER), I64_MUL, ...i64(56n), I64_SHR_U, I32_WRAP_I64, ...mem(I32_STORE8, 0)],
  ];
  const column = [...get(x), ...i32(3), I32_SHR_U, I32_ADD];
  return [
    ...[2, 5, I32, 2, I64], // locals 6–10: y, x, row, o, full; 11–12: v, up
    ...[...get(width), ...i32(-8), I32_AND, ...set(full)],
    ...[BLOCK, VOID, LOOP, VOID],
    ...[...get(y), ...get(height), I32_GE_U, BR_IF, 1],
    ...[...get(index), ...get(y), ...get(width), I32_MUL, I32_ADD, ...set(row)],
    ...[...get(dst), ...get(y), ...get(rowBytes), I32_MUL, I32_ADD, ...set(o)],
    ...[...i32(0), ...set(x)],
    ...[BLOCK, VOID, LOOP, VOID],
    ...[...get(x), ...get(full), I32_GE_U, BR_IF, 1],
    ...[...get(row), ...get(x), I32_ADD, ...mem(I64_LOAD, 0), ...tee(v), I64_EQZ, I32_EQZ, IF, VOID],
    ...[...get(v), ...i64(1n), I64_SHR_U, ...set(up)],
    ...[...get(o), ...column, ...planeByte(v, up)],
    ...[...get(second), ...i32(0), I32_GE_S, IF, VOID],
    ...[...get(o), ...get(second), I32_ADD, ...column, ...planeByte(up, v)],
    ...[END, END],
    ...[...get(x), ...i32(8), I32_ADD, ...set(x), BR, 0],
    ...[END, END],
    ...[...get(y), ...i32(1), I32_ADD, ...set(y), BR, 0],
    ...[END, END],
    END,
  ];
})();

const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const name = (text: string) => [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];

/** The module's bytes. */
export function kernelBytes(): Uint8Array {
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(
      1,
      vec([
        [0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), ...vec([[I32]])],
        [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32]]), ...vec([])],
      ]),
    ),
    ...section(3, vec([[0], [1]])),
    ...section(5, vec([[0x00, 1]])),
    ...section(
      7,
      vec([
        [...name('memory'), 0x02, 0],
        [...name('scan'), 0x00, 0],
        [...name('pack'), 0x00, 1],
      ]),
    ),
    ...section(
      10,
      vec([
        [...uleb(SCAN.length), ...SCAN],
        [...uleb(PACK.length), ...PACK],
      ]),
    ),
  ]);
}

export interface Kernel {
  /** The module's memory; views of it go stale when it grows. */
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  scan(src: number, n: number, out: number, table: number, start: number): number;
  pack(index: number, width: number, height: number, rowBytes: number, second: number, dst: number): void;
}

/** What this file needs of the WebAssembly global (typed here: the package builds without the DOM library). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
}

let kernel: Kernel | null | undefined;
let enabled = true;

/** True where the platform stores the low byte of a word first, as WebAssembly memory does. */
export const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * The compiled module, made once; null where WebAssembly is not available (or, for the odd
 * big-endian machine, where JavaScript's word views would not match the module's memory).
 */
export function wasmKernel(): Kernel | null {
  if (!enabled) return null;
  if (kernel !== undefined) return kernel;
  kernel = null;
  const api = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (!api || !LITTLE_ENDIAN) return kernel;
  try {
    const { exports } = new api.Instance(new api.Module(kernelBytes()), {});
    kernel = {
      memory: exports.memory as Kernel['memory'],
      scan: exports.scan as Kernel['scan'],
      pack: exports.pack as Kernel['pack'],
    };
  } catch {
    // Refused (CSP) or unsupported: the JavaScript loops do the work.
  }
  return kernel;
}

/** Makes the kernel's memory at least `bytes` long (64 KB pages). */
export function reserve(k: Kernel, bytes: number): void {
  const missing = bytes - k.memory.buffer.byteLength;
  if (missing > 0) k.memory.grow(Math.ceil(missing / 65536));
}

/** Tests only: false runs the JavaScript loops, as where WebAssembly is refused; true the module again. */
export function setKernelEnabled(on: boolean): void {
  enabled = on;
}

/**
 * Where the module's memory is laid out: colour tables (one per palette, TABLE_SLOTS × SLOT_BYTES
 * each) first, then the pixels of the call in progress.
 */
export const TABLE_BYTES = TABLE_SLOTS * SLOT_BYTES;
export const MAX_TABLES = 8;
export const DATA_BASE = MAX_TABLES * TABLE_BYTES;
