import { describe, expect, it } from 'vitest';
import { formatSkew, formatUptime } from './figures';

describe('station figures', () => {
  it('words uptime in its two largest units', () => {
    expect(formatUptime(0, 'en')).toBe('0 s');
    expect(formatUptime(42, 'en')).toBe('42 s');
    expect(formatUptime(5 * 3600 + 12 * 60 + 9, 'en')).toBe('5 h 12 min');
    expect(formatUptime(3 * 86_400 + 5 * 60, 'en')).toBe('3 d');
    expect(formatUptime(3 * 86_400 + 4 * 3600, 'zh-CN')).toBe('3天4小时');
  });
  it('signs the clock skew', () => {
    expect(formatSkew(300, 'en')).toBe('+0.3 s');
    expect(formatSkew(-12_000, 'en')).toBe('−12.0 s');
    // zh-CN words seconds as 秒, like the uptime column and the configuration's intervals.
    expect(formatSkew(300, 'zh-CN')).toBe('+0.3秒');
    expect(formatSkew(-12_000, 'zh-CN')).toBe('−12.0秒');
  });
});
