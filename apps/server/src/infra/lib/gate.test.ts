import { describe, expect, it } from 'vitest';
import { Gate } from './gate';

describe('gate for costly calls', () => {
  it('admits per key and in all up to its limits, and frees a place once', () => {
    const gate = new Gate(2, 3);
    const a1 = gate.enter(1);
    const a2 = gate.enter(1);
    expect(a1 && a2).toBeTruthy();
    expect(gate.enter(1)).toBeNull();
    const b1 = gate.enter(2);
    expect(b1).toBeTruthy();
    expect(gate.enter(3)).toBeNull(); // three in all
    a1?.();
    a1?.(); // a second call frees nothing more
    expect(gate.size).toBe(2);
    const a3 = gate.enter(1);
    expect(a3).toBeTruthy();
    expect(gate.enter(2)).toBeNull();
    for (const leave of [a2, a3, b1]) leave?.();
    expect(gate.size).toBe(0);
  });
});
