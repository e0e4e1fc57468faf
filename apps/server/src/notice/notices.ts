/** Anything that can take a text frame: a WebSocket, or a stub in tests. */
export interface NoticeSink {
  send(text: string): void;
}

interface Subscriber {
  sink: NoticeSink;
  tenantId: number | null;
  userId: number;
}

/**
 * The consoles connected to /sys/eslnotice in this process. Later issues publish through the
 * message broker so every process's consoles hear a notice; this hub delivers locally.
 */
export class Notices {
  readonly #subscribers = new Set<Subscriber>();

  add(sink: NoticeSink, who: { tenantId: number | null; userId: number }): () => void {
    const sub = { sink, ...who };
    this.#subscribers.add(sub);
    return () => this.#subscribers.delete(sub);
  }

  get size(): number {
    return this.#subscribers.size;
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
