// Camera scanning: the browser's BarcodeDetector where it has one (Chrome on Android), else the
// zxing-wasm decoder, loaded only when the camera is first opened so it costs the page nothing
// until then (its WebAssembly comes from this server: the CSP allows no other origin).

/** The symbologies of price tags (Code 128, QR, Data Matrix) and of products (EAN/UPC, Code 128/39, ITF). */
export const FORMATS = [
  'ean_13',
  'ean_8',
  'upc_a',
  'upc_e',
  'code_128',
  'code_39',
  'itf',
  'qr_code',
  'data_matrix',
] as const;

/** Reads one frame; answers the first code found, or null. */
export type FrameReader = (video: HTMLVideoElement) => Promise<string | null>;

interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats(): Promise<string[]>;
}

/** Which decoder the page uses here; 'wasm' loads zxing-wasm. */
export async function chooseDecoder(scope: object = globalThis): Promise<'native' | 'wasm'> {
  const native = (scope as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (!native) return 'wasm';
  try {
    const supported = await native.getSupportedFormats();
    return FORMATS.some((f) => supported.includes(f)) ? 'native' : 'wasm';
  } catch {
    return 'wasm';
  }
}

export async function frameReader(): Promise<FrameReader> {
  if ((await chooseDecoder()) === 'native') {
    const native = (globalThis as unknown as { BarcodeDetector: BarcodeDetectorClass }).BarcodeDetector;
    const supported = await native.getSupportedFormats();
    const detector = new native({ formats: FORMATS.filter((f) => supported.includes(f)) });
    return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
  }
  const { wasmFrameReader } = await import('./zxing');
  return wasmFrameReader();
}

/** The back camera, as a stream; throws when there is none or it is not allowed. */
export function openCamera(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) return Promise.reject(new Error('no camera API'));
  return navigator.mediaDevices.getUserMedia({
    audio: false,
    video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
  });
}
