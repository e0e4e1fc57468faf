/*
 * Connections that have not logged in yet: what a stranger can make the broker hold before it
 * knows who they are (docs/SERVER.md, "Station logins and strangers on the embedded broker").
 * Before its login is accepted a connection may send at most `maxConnectBytes` in all
 * (packet-guard.ts), and it is in one of two states:
 *
 * - **Arriving**: its CONNECT has not fully arrived. At most `pendingTotal` are held: a new one
 *   past it closes at once the oldest arriving connection of the address holding the most (a
 *   flood pushes out the flood, not the station behind another address). Per address at most
 *   `pendingPerAddress` are kept: the oldest beyond it are closed as soon as they have had
 *   `arrivalGraceMs` to send their CONNECT (at the next arrival, or by a sweep). A burst of real
 *   stations behind one address (a store's NAT, a server restart) — accepted faster than their
 *   CONNECTs are read — therefore has the grace to send them, while a slow sender never holds
 *   more than the cap past the grace, and never more than `pendingTotal` in all.
 * - **Verifying**: its complete, size-capped CONNECT is being checked (the secret's lookup).
 *   Never closed to make room: a station's login is not pushed out by later arrivals (it once
 *   was, when 1,000 stations connected from one address: each burst evicted its own logins).
 *   At most `verifyingTotal` are held; past it the login is refused as "server unavailable" (the
 *   station backs off) without a lookup. A verifying connection leaves on its own within a
 *   lookup's time: logged in or refused.
 *
 * Logged-in connections are not counted. At most (pendingTotal + verifyingTotal) ×
 * maxConnectBytes of sent bytes are thus held for connections not logged in.
 */

export interface AdmissionLimits {
  pendingPerAddress: number;
  pendingTotal: number;
  verifyingTotal: number;
  arrivalGraceMs: number;
}

export interface Pending {
  address: string;
  close(): void;
}

export class Admission {
  /** Arriving connections, oldest first, with the time each was accepted. */
  private readonly arriving = new Map<Pending, number>();
  /** The same by address, oldest first. */
  private readonly byAddress = new Map<string, Set<Pending>>();
  private readonly verifying = new Set<Pending>();
  /** Addresses over their cap whose extra connections are still within the grace. */
  private readonly over = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  /** Connections closed to make room, since the broker started. */
  evicted = 0;
  /** Logins refused because `verifyingTotal` were being checked. */
  busy = 0;

  constructor(
    private readonly limits: AdmissionLimits,
    /** Real time in ms (sockets' time, not the broker's injectable clock). */
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** A new connection: arriving; the oldest beyond the caps are closed. */
  admit(p: Pending): void {
    const now = this.clock();
    let mine = this.byAddress.get(p.address);
    if (!mine) {
      mine = new Set<Pending>();
      this.byAddress.set(p.address, mine);
    }
    mine.add(p);
    this.arriving.set(p, now);
    this.trim(p.address, now);
    while (this.arriving.size > this.limits.pendingTotal) this.evict(this.oldestOfLargest());
  }

  /**
   * Its CONNECT has fully arrived and its login is being checked: no longer evictable. False when
   * `verifyingTotal` are being checked (refuse the login) or the connection is already gone.
   */
  verify(p: Pending): boolean {
    if (this.verifying.has(p)) return true;
    if (!this.arriving.has(p)) return false;
    if (this.verifying.size >= this.limits.verifyingTotal) {
      this.busy++;
      return false;
    }
    this.forgetArriving(p);
    this.verifying.add(p);
    return true;
  }

  /** Logged in, or closed: no longer counted. */
  settle(p: Pending): void {
    this.verifying.delete(p);
    this.forgetArriving(p);
  }

  /** Connections held now that are not logged in (all, or of one address), and those being verified. */
  count(address?: string): number {
    if (address === undefined) return this.arriving.size + this.verifying.size;
    let n = this.byAddress.get(address)?.size ?? 0;
    for (const p of this.verifying) if (p.address === address) n++;
    return n;
  }

  verifyingCount(): number {
    return this.verifying.size;
  }

  /** Closes, past the grace, what is over the per-address caps (the timer calls it; tests may). */
  sweep(): void {
    const now = this.clock();
    const addresses = [...this.over];
    this.over.clear();
    for (const a of addresses) this.trim(a, now);
  }

  /** Stops the sweep timer (the broker is closing). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  private trim(address: string, now: number) {
    const mine = this.byAddress.get(address);
    while (mine && mine.size > this.limits.pendingPerAddress) {
      const oldest = mine.values().next().value as Pending;
      const due = (this.arriving.get(oldest) ?? now) + this.limits.arrivalGraceMs;
      if (due > now) {
        this.over.add(address);
        this.schedule(due);
        return;
      }
      this.evict(oldest);
    }
  }

  private schedule(at: number) {
    if (at >= this.timerAt) return;
    this.stop();
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Number.POSITIVE_INFINITY;
        // After the next poll: sockets whose CONNECT waits in the kernel get it read first.
        setImmediate(() => this.sweep());
      },
      Math.max(0, at - this.clock()),
    );
    this.timer.unref?.();
  }

  /** The oldest arriving connection of the address holding the most. */
  private oldestOfLargest(): Pending {
    let largest: Set<Pending> | undefined;
    for (const set of this.byAddress.values()) if (!largest || set.size > largest.size) largest = set;
    return largest?.values().next().value as Pending;
  }

  private forgetArriving(p: Pending) {
    if (!this.arriving.delete(p)) return;
    const mine = this.byAddress.get(p.address);
    mine?.delete(p);
    if (mine?.size === 0) {
      this.byAddress.delete(p.address);
      this.over.delete(p.address);
    }
  }

  private evict(p: Pending) {
    this.settle(p);
    this.evicted++;
    p.close();
  }
}
