import { describe, expect, it } from 'vitest';
import { deviceFor } from './device';

describe('deviceFor', () => {
  it('is mobile below 992 px and desktop from 992 px', () => {
    expect(deviceFor(320)).toBe('mobile');
    expect(deviceFor(991)).toBe('mobile');
    expect(deviceFor(992)).toBe('desktop');
    expect(deviceFor(1920)).toBe('desktop');
  });
});
