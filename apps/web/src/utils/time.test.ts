import { describe, expect, it } from 'vitest';
import { formatTime, parseTime, toDate } from './time';

const local = new Date(2024, 0, 2, 3, 4, 5); // Tuesday 2 January 2024, 03:04:05 local time
const ms = local.getTime();
const seconds = Math.floor(ms / 1000);

describe('parseTime', () => {
  it('uses the default format with two-digit fields', () => {
    expect(parseTime(local)).toBe('2024-01-02 03:04:05');
  });
  it('reads a ten-digit number as seconds and a longer one as milliseconds', () => {
    expect(String(seconds)).toHaveLength(10);
    expect(parseTime(seconds)).toBe('2024-01-02 03:04:05');
    expect(parseTime(ms)).toBe('2024-01-02 03:04:05');
    expect(parseTime(String(seconds))).toBe('2024-01-02 03:04:05');
  });
  it('reads dashed date strings', () => {
    expect(parseTime('2024-01-02 03:04:05', '{y}/{m}/{d} {h}:{i}')).toBe('2024/01/02 03:04');
  });
  it('fills a custom format and the weekday', () => {
    expect(parseTime(local, '{d}.{m}.{y} 周{a}')).toBe('02.01.2024 周二');
    expect(parseTime(local, '{a}', 'en')).toBe('Tue');
  });
  it('gives null for nothing and for unreadable input', () => {
    expect(parseTime(null)).toBeNull();
    expect(parseTime('')).toBeNull();
    expect(parseTime('not a date')).toBeNull();
  });
  it('keeps a Date as it is', () => {
    expect(toDate(local)?.getTime()).toBe(ms);
  });
});

describe('formatTime (SPEC.md §9 relative rules)', () => {
  const now = ms;
  const ago = (s: number) => now - s * 1000;
  it('says just now under 30 seconds', () => {
    expect(formatTime(ago(0), undefined, 'zh-CN', now)).toBe('刚刚');
    expect(formatTime(ago(29), undefined, 'zh-CN', now)).toBe('刚刚');
    expect(formatTime(ago(29), undefined, 'en', now)).toBe('just now');
  });
  it('counts minutes under an hour, rounding up', () => {
    expect(formatTime(ago(30), undefined, 'zh-CN', now)).toBe('1分钟前');
    expect(formatTime(ago(61), undefined, 'zh-CN', now)).toBe('2分钟前');
    expect(formatTime(ago(3599), undefined, 'zh-CN', now)).toBe('60分钟前');
    expect(formatTime(ago(120), undefined, 'en', now)).toBe('2 minutes ago');
  });
  it('counts hours under a day', () => {
    expect(formatTime(ago(3600), undefined, 'zh-CN', now)).toBe('1小时前');
    expect(formatTime(ago(3601), undefined, 'zh-CN', now)).toBe('2小时前');
    expect(formatTime(ago(86399), undefined, 'zh-CN', now)).toBe('24小时前');
  });
  it('says 1 day ago under 48 hours', () => {
    expect(formatTime(ago(86400), undefined, 'zh-CN', now)).toBe('1天前');
    expect(formatTime(ago(172799), undefined, 'zh-CN', now)).toBe('1天前');
    expect(formatTime(ago(172799), undefined, 'en', now)).toBe('1 day ago');
  });
  it('gives a date from 48 hours on', () => {
    const old = new Date(2023, 11, 25, 8, 9, 0);
    expect(formatTime(old.getTime(), undefined, 'zh-CN', now)).toBe('12月25日8时9分');
    expect(formatTime(old.getTime(), '{y}-{m}-{d}', 'zh-CN', now)).toBe('2023-12-25');
  });
  it('treats ten-digit input as seconds', () => {
    expect(formatTime(Math.floor(ago(90) / 1000), undefined, 'zh-CN', now)).toBe('2分钟前');
  });
});
