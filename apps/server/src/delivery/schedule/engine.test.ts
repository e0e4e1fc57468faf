import { describe, expect, it } from 'vitest';
import { jobKindOf } from '../link/consumers';
import { timedJobId } from './engine';

describe('timed image job ids', () => {
  it('say their kind, apart from firmware and label tasks', () => {
    expect(timedJobId(27)).toBe(`zt${'0'.repeat(13)}r`);
    expect(jobKindOf(timedJobId(27))).toBe('timed');
    expect(jobKindOf('zt00000000000000')).toBe('task');
    expect(jobKindOf('zf000000000000r')).toBe('task');
    expect(jobKindOf(`zf${'0'.repeat(13)}r`)).toBe('firmware');
    expect(jobKindOf('1a2b')).toBe('task');
  });
});
