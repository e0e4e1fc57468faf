import { prepareZXingModule, type ReadInputBarcodeFormat, readBarcodes } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

// Loaded lazily by camera.ts. The decoder's WebAssembly is bundled as an asset of this server
// (by default zxing-wasm fetches it from a CDN, which the CSP refuses).

const ZXING_FORMATS: ReadInputBarcodeFormat[] = [
  'EAN13',
  'EAN8',
  'UPCA',
  'UPCE',
  'Code128',
  'Code39',
  'ITF',
  'QRCode',
  'DataMatrix',
];

let prepared = false;

/** Reads one video frame; answers the first code found, or null (camera.ts's FrameReader). */
export function wasmFrameReader(): (video: HTMLVideoElement) => Promise<string | null> {
  if (!prepared) {
    prepareZXingModule({
      overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) },
    });
    prepared = true;
  }
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return async (video) => {
    if (!context || !video.videoWidth) return null;
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    context.drawImage(video, 0, 0);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    const [first] = await readBarcodes(image, { formats: ZXING_FORMATS, tryHarder: true, maxNumberOfSymbols: 1 });
    return first?.isValid ? first.text : null;
  };
}

/** Decodes one picture (used by the page's self-check and by tests). */
export async function decodeImage(image: ImageData): Promise<string | null> {
  wasmFrameReader();
  const [first] = await readBarcodes(image, { formats: ZXING_FORMATS, tryHarder: true, maxNumberOfSymbols: 1 });
  return first?.isValid ? first.text : null;
}
