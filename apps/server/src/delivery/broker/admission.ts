/*
 * Connections that have not logged in yet ("half-open"): what a stranger can make the broker hold
 * before it knows who they are (docs/SERVER.md, "The embedded broker under strangers"). Each may
 * send at most `maxConnectBytes` before its login is accepted (packet-guard.ts), and at most
 * `pendingPerAddress` of them per address and `pendingTotal` in all are held: a new one past a
 * cap closes the *oldest* half-open connection of its address (or, past the total, the oldest
 * of all). A flood therefore only ever pushes out the flood: a real station, which sends its
 * CONNECT at once and is logged in within milliseconds, connects after it — refusing the newest
 * instead would let a stranger keep every station behind the same NAT out. Logged-in connections
 * are not counted.
 */

export interface AdmissionLimits {
  pendingPerAddress: number;
  pendingTotal: number;
}

export interface Pending {
  address: string;
  close(): void;
}

export class Admission {
  /** Half-open connections, oldest first. */
  private readonly pending = new Set<Pending>();
  private readonly byAddress = new Map<string, Set<Pending>>();
  /** Half-open connections closed to make room, since the broker started. */
  evicted = 0;

  constructor(private readonly limits: AdmissionLimits) {}

  /** A new connection: held as half-open, closing the oldest ones beyond the caps. */
  admit(p: Pending): void {
    const mine = this.byAddress.get(p.address) ?? new Set<Pending>();
    this.byAddress.set(p.address, mine);
    while (mine.size >= this.limits.pendingPerAddress) this.evict(mine.values().next().value as Pending);
    while (this.pending.size >= this.limits.pendingTotal) this.evict(this.pending.values().next().value as Pending);
    mine.add(p);
    this.pending.add(p);
  }

  /** Logged in, or closed: no longer half-open. */
  settle(p: Pending): void {
    if (!this.pending.delete(p)) return;
    const mine = this.byAddress.get(p.address);
    mine?.delete(p);
    if (mine?.size === 0) this.byAddress.delete(p.address);
  }

  /** Half-open connections held now (all, or of one address). */
  count(address?: string): number {
    return address === undefined ? this.pending.size : (this.byAddress.get(address)?.size ?? 0);
  }

  private evict(p: Pending) {
    this.settle(p);
    this.evicted++;
    p.close();
  }
}
