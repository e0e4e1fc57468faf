import { describe, expect, it } from 'vitest';
import { describeTarget, encodeTarget, TARGET_CHARS } from './opTarget';

describe('operation-log targets', () => {
  it('are described in the reader’s language with the object’s name', () => {
    const store = encodeTarget({ kind: 'store', name: '一号店' });
    expect(describeTarget(store, 'zh-CN')).toBe('门店 一号店');
    expect(describeTarget(store, 'en')).toBe('store 一号店');
    const session = encodeTarget({ kind: 'session', name: 'admin' });
    expect(describeTarget(session, 'zh-CN')).toBe('admin 的会话');
    const role = encodeTarget({ kind: 'role', name: 'manager' });
    expect(describeTarget(role, 'zh-CN')).toBe('角色 店长');
    expect(describeTarget(role, 'en')).toBe('role store manager');
    const binding = encodeTarget({ kind: 'binding', name: 'C0FFEE01', extra: '6901234' });
    expect(describeTarget(binding, 'en')).toBe('tag C0FFEE01 → product 6901234');
  });

  it('name a few of many objects and say how many there are; one of many reads as one', () => {
    const names = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
    const many = encodeTarget({ kind: 'stores', names, count: 7 });
    expect(describeTarget(many, 'en')).toBe('7 stores: A, B, C, D, E …');
    expect(describeTarget(many, 'zh-CN')).toBe('7 个门店：A、B、C、D、E 等');
    const one = encodeTarget({ kind: 'templates', names: ['Price'], count: 1 });
    expect(describeTarget(one, 'en')).toBe('template Price');
  });

  it('keep long names short and the stored text bounded', () => {
    const long = 'x'.repeat(10_000);
    const stored = encodeTarget({ kind: 'products', names: Array(100).fill(long), count: 100 });
    expect(stored.length).toBeLessThanOrEqual(TARGET_CHARS);
    expect(describeTarget(stored, 'en')).toMatch(/^100 products: x+…, /);
  });

  it('show older rows and raw refusals as they were written', () => {
    expect(describeTarget('store 5', 'zh-CN')).toBe('store 5');
    expect(describeTarget('{not json', 'en')).toBe('{not json');
    expect(describeTarget('{"k":"nope"}', 'en')).toBe('{"k":"nope"}');
  });
});
