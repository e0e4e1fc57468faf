import { describe, expect, it } from 'vitest';
import { chooseDecoder } from './camera';

const detector = (formats: string[] | Error) => ({
  BarcodeDetector: {
    getSupportedFormats: async () => {
      if (formats instanceof Error) throw formats;
      return formats;
    },
  },
});

describe('which decoder the camera uses', () => {
  it('uses the browser’s BarcodeDetector when it reads a format of tags or products', async () => {
    expect(await chooseDecoder(detector(['qr_code', 'ean_13']))).toBe('native');
    expect(await chooseDecoder(detector(['code_128']))).toBe('native');
  });

  it('falls back to zxing-wasm without one, when it reads none of them, or when it fails', async () => {
    expect(await chooseDecoder({})).toBe('wasm');
    expect(await chooseDecoder(detector([]))).toBe('wasm');
    expect(await chooseDecoder(detector(['aztec', 'pdf417']))).toBe('wasm');
    expect(await chooseDecoder(detector(new Error('no camera service')))).toBe('wasm');
  });
});
