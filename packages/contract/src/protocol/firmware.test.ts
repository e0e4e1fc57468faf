import { describe, expect, it } from 'vitest';
import { encodeFirmwareFile, FIRMWARE_MAGIC, type FirmwareHeader, firmwareFits, readFirmwareFile } from './firmware';

const payload = new Uint8Array([1, 2, 3, 4, 5]);
const header: FirmwareHeader = { kind: 'tag', version: '1.1.0', hw: ['05'], size: 5, sha256: 'ab'.repeat(32) };

describe('the firmware file', () => {
  it('reads back what it wrote: magic, header length, header, payload', () => {
    const file = encodeFirmwareFile(header, payload);
    expect(new TextDecoder().decode(file.subarray(0, 6))).toBe(FIRMWARE_MAGIC);
    const read = readFirmwareFile(file);
    expect(read).toMatchObject({ ok: true, header });
    if (read.ok) expect([...read.payload]).toEqual([...payload]);
  });

  it('refuses a wrong magic, a broken or invalid header, and a payload of another length', () => {
    const file = encodeFirmwareFile(header, payload);
    const wrongMagic = file.slice();
    wrongMagic[0] = 0x50;
    expect(readFirmwareFile(wrongMagic)).toEqual({ ok: false, error: 'magic' });
    expect(readFirmwareFile(new Uint8Array(3))).toEqual({ ok: false, error: 'magic' });
    const brokenJson = file.slice();
    brokenJson[8] = 0x5b; // '[' where '{' was
    expect(readFirmwareFile(brokenJson)).toEqual({ ok: false, error: 'header' });
    const longHeader = file.slice();
    longHeader[6] = 0xff;
    expect(readFirmwareFile(longHeader)).toEqual({ ok: false, error: 'header' });
    expect(readFirmwareFile(file.subarray(0, file.length - 1))).toEqual({ ok: false, error: 'size' });
    expect(readFirmwareFile(new Uint8Array([...file, 0]))).toEqual({ ok: false, error: 'size' });
  });

  it('requires tag hardware for tag files and station models for the others', () => {
    expect(() => encodeFirmwareFile({ ...header, hw: [] }, payload)).toThrow(/hardware/);
    expect(() => encodeFirmwareFile({ ...header, kind: 'station', hw: undefined }, payload)).toThrow(/models/);
    expect(() => encodeFirmwareFile({ ...header, kind: 'module', models: ['AP'] }, payload)).toThrow(/tag hardware/);
  });

  it('fits a station by its model and a tag by its hardware code', () => {
    expect(firmwareFits(header, '05')).toBe(true);
    expect(firmwareFits(header, '0A')).toBe(false);
    expect(firmwareFits({ kind: 'station', models: ['SIM-AP'] }, 'SIM-AP')).toBe(true);
    expect(firmwareFits({ kind: 'module', models: ['SIM-AP'] }, 'OTHER')).toBe(false);
  });
});
