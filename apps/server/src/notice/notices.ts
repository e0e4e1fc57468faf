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

/**
 * The consoles connected to /sys/eslnotice in this process. Later issues publish through the
 * message broker so every process's consoles hear a notice; this hub delivers locally.
 */
export class Notices {
  readonly #subscribers = new Set<Subscriber>();

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
