import { describe, expect, it } from 'vitest';
import { nextPlace, parsePlaceCode } from './place';

describe('shelf codes on the handheld', () => {
  it('reads aisle, bay, shelf and an optional position', () => {
    expect(parsePlaceCode('A3-2-4-7')).toEqual({ aisle: 'A3', bay: '2', shelf: '4', position: '7' });
    expect(parsePlaceCode(' A3/2/top ')).toEqual({ aisle: 'A3', bay: '2', shelf: 'top', position: '' });
    expect(parsePlaceCode('12 3 1 20')).toEqual({ aisle: '12', bay: '3', shelf: '1', position: '20' });
  });
  it('refuses codes of another shape', () => {
    expect(parsePlaceCode('6901234567892')).toBeNull();
    expect(parsePlaceCode('A-1')).toBeNull();
    expect(parsePlaceCode('A-1-2-x')).toBeNull();
    expect(parsePlaceCode('A-1-2-0')).toBeNull();
    expect(parsePlaceCode('A-1-2-3-4')).toBeNull();
  });
  it('offers the next position on the same shelf', () => {
    expect(nextPlace({ aisle: 'A', bay: '1', shelf: '2', position: '7' }).position).toBe('8');
    expect(nextPlace({ aisle: 'A', bay: '1', shelf: '2', position: '' }).position).toBe('');
  });
});
