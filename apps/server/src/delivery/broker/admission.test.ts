import { describe, expect, it } from 'vitest';
import { Admission, type Pending } from './admission';

// The admission rules on a clock of our own (the broker's sockets: strangers.test.ts).

const LIMITS = { pendingPerAddress: 16, pendingTotal: 100, verifyingTotal: 50, arrivalGraceMs: 2000 };

function setup(limits = LIMITS) {
  let clock = 0;
  const admission = new Admission(limits, () => clock);
  const closed = new Set<Pending>();
  const conn = (address: string): Pending => {
    const p: Pending = { address, close: () => closed.add(p) };
    admission.admit(p);
    return p;
  };
  return { admission, closed, conn, advance: (ms: number) => (clock += ms) };
}

describe('admission', () => {
  it('gives a burst from one address the grace to send its CONNECTs, then keeps the cap', () => {
    const { admission, closed, conn, advance } = setup();
    // 40 stations accepted before any CONNECT is read: none closed yet.
    const burst = Array.from({ length: 40 }, () => conn('10.0.0.1'));
    expect(closed.size).toBe(0);
    // 30 send theirs within the grace: checked, never evicted from now on.
    for (const p of burst.slice(0, 30)) expect(admission.verify(p)).toBe(true);
    advance(2000);
    admission.sweep();
    expect(closed.size).toBe(0); // 10 arriving: under the cap
    // Slow senders from the same address past the grace: only the cap's worth is kept.
    for (let i = 0; i < 20; i++) conn('10.0.0.1');
    advance(2000);
    admission.sweep();
    expect(closed.size).toBe(30 - 16);
    expect([...closed].every((p) => !burst.slice(0, 30).includes(p))).toBe(true);
    expect(admission.count()).toBe(30 + 16);
    expect(admission.verifyingCount()).toBe(30);
  });

  it('never evicts a connection whose login is being checked, and refuses past verifyingTotal', () => {
    const { admission, closed, conn } = setup();
    const checking = Array.from({ length: 50 }, () => conn('10.0.0.1'));
    for (const p of checking) expect(admission.verify(p)).toBe(true);
    // Under the old rule each arrival past 16 closed the oldest, a login waiting for its lookup.
    for (let i = 0; i < 16; i++) conn('10.0.0.1');
    expect(closed.size).toBe(0);
    const late = conn('10.0.0.2');
    expect(admission.verify(late)).toBe(false);
    expect(admission.busy).toBe(1);
    admission.settle(checking[0] as Pending);
    expect(admission.verify(late)).toBe(true);
  });

  it(`holds at most pendingTotal arriving, closing the oldest of the address holding the most`, () => {
    const { admission, closed, conn } = setup();
    const station = conn('10.0.0.9');
    const flood = Array.from({ length: 150 }, () => conn('10.0.0.1'));
    expect(admission.count()).toBe(100);
    expect(closed.has(station)).toBe(false);
    expect(closed.size).toBe(51);
    expect([...closed]).toEqual(flood.slice(0, 51));
  });
});
