/** Anything that can take a text frame: a WebSocket, or a stub in tests. */
export interface NoticeSink {
  send(text: string): void;
}

interface Subscriber {
  sink: NoticeSink;
  tenantId: number | null;
  userId: number;
  /** The console session (hash of its token) the socket was opened with. */
  sessionId?: string;
}

/** A notice as it travels to the other server processes (cluster/notices.ts). */
export interface RelayedNotice {
  tenantId: number | null;
  /** Only the sockets of this console session; absent: every console of the tenant. */
  sessionId?: string;
  /** Only the consoles of this user (every session of theirs); absent: every console of the tenant. */
  userId?: number;
  notice: { type: string } & Record<string, unknown>;
}

/**
 * The consoles connected to /sys/eslnotice in this process. With several server processes
 * (cluster/notices.ts) `relay` also hands each notice to the others, which `deliver` it to their
 * own consoles, so a console hears it whichever server its socket is on.
 */
export class Notices {
  readonly #subscribers = new Set<Subscriber>();
  /** Set by the cross-process relay; null: one process, local delivery only. */
  relay: ((n: RelayedNotice) => void) | null = null;

  add(sink: NoticeSink, who: { tenantId: number | null; userId: number; sessionId?: string }): () => void {
    const sub = { sink, ...who };
    this.#subscribers.add(sub);
    return () => this.#subscribers.delete(sub);
  }

  get size(): number {
    return this.#subscribers.size;
  }

  /**
   * Sends a JSON notice only to the sockets of one console session of the tenant (e.g. the
   * output of a command window goes to the session that opened it, not to every console).
   */
  toSession(tenantId: number, sessionId: string, notice: { type: string } & Record<string, unknown>): number {
    this.relay?.({ tenantId, sessionId, notice });
    return this.#toSession(tenantId, sessionId, notice);
  }

  /**
   * Sends a JSON notice to the consoles of one user of the tenant (e.g. the user who scheduled a
   * change hears that it took effect), whichever of their sessions is open.
   */
  toUser(tenantId: number, userId: number, notice: { type: string } & Record<string, unknown>): number {
    this.relay?.({ tenantId, userId, notice });
    return this.#toUser(tenantId, userId, notice);
  }

  /** A notice another server process sent: to this process's consoles only. */
  deliver(n: RelayedNotice): number {
    if (n.userId !== undefined) return n.tenantId === null ? 0 : this.#toUser(n.tenantId, n.userId, n.notice);
    return n.sessionId === undefined
      ? this.#broadcast(n.tenantId, n.notice)
      : n.tenantId === null
        ? 0
        : this.#toSession(n.tenantId, n.sessionId, n.notice);
  }

  #toUser(tenantId: number, userId: number, notice: { type: string } & Record<string, unknown>): number {
    const text = JSON.stringify(notice);
    let sent = 0;
    for (const sub of this.#subscribers) {
      if (sub.tenantId !== tenantId || sub.userId !== userId) continue;
      try {
        sub.sink.send(text);
        sent++;
      } catch {
        this.#subscribers.delete(sub);
      }
    }
    return sent;
  }

  #toSession(tenantId: number, sessionId: string, notice: { type: string } & Record<string, unknown>): number {
    const text = JSON.stringify(notice);
    let sent = 0;
    for (const sub of this.#subscribers) {
      if (sub.tenantId !== tenantId || sub.sessionId !== sessionId) continue;
      try {
        sub.sink.send(text);
        sent++;
      } catch {
        this.#subscribers.delete(sub);
      }
    }
    return sent;
  }

  /** Sends a JSON notice to every console of the tenant (null = platform operators). */
  broadcast(tenantId: number | null, notice: { type: string } & Record<string, unknown>): number {
    this.relay?.({ tenantId, notice });
    return this.#broadcast(tenantId, notice);
  }

  #broadcast(tenantId: number | null, notice: { type: string } & Record<string, unknown>): number {
    const text = JSON.stringify(notice);
    let sent = 0;
    for (const sub of this.#subscribers) {
      if (sub.tenantId !== tenantId) continue;
      try {
        sub.sink.send(text);
        sent++;
      } catch {
        this.#subscribers.delete(sub);
      }
    }
    return sent;
  }
}
