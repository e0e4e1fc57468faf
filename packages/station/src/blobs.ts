import { LIMITS } from '@esl/contract/protocol';

export interface ChunkRequest {
  hash: string;
  offset: number;
  length: number;
}

interface Pull {
  size: number;
  chunks: Map<number, Uint8Array>;
  inFlight: Set<number>;
}

/**
 * Blob downloads (docs/PROTOCOL.md 5.5): chunks asked for by offset, at most four in flight per
 * station, kept across a lost connection so the pull resumes at the first missing offset.
 */
export class BlobPulls {
  private readonly pulls = new Map<string, Pull>();

  constructor(private readonly chunk: number) {}

  /** Starts pulling `hash` (once, however many jobs name it). */
  start(hash: string, size: number): void {
    if (!this.pulls.has(hash)) this.pulls.set(hash, { size, chunks: new Map(), inFlight: new Set() });
  }

  /** Requests to send now: missing chunks, in offset order, up to the in-flight limit. */
  nextRequests(): ChunkRequest[] {
    const out: ChunkRequest[] = [];
    let inFlight = 0;
    for (const p of this.pulls.values()) inFlight += p.inFlight.size;
    for (const [hash, p] of this.pulls) {
      for (let offset = 0; offset < p.size && inFlight < LIMITS.maxBlobRequestsInFlight; offset += this.chunk) {
        if (p.chunks.has(offset) || p.inFlight.has(offset)) continue;
        p.inFlight.add(offset);
        inFlight++;
        out.push({ hash, offset, length: Math.min(this.chunk, p.size - offset) });
      }
    }
    return out;
  }

  /** A chunk arrived; returns the whole blob once complete (the pull ends), else null. */
  receive(hash: string, offset: number, bytes: Uint8Array): Uint8Array | null {
    const p = this.pulls.get(hash);
    if (!p?.inFlight.has(offset)) return null; // not asked for: ignored
    p.inFlight.delete(offset);
    p.chunks.set(offset, bytes.slice(0, Math.min(this.chunk, p.size - offset)));
    let have = 0;
    for (const c of p.chunks.values()) have += c.length;
    if (have < p.size) return null;
    this.pulls.delete(hash);
    const blob = new Uint8Array(p.size);
    for (const [o, c] of p.chunks) blob.set(c, o);
    return blob;
  }

  /** Bytes of `hash` held so far (0 when no pull of it runs). */
  have(hash: string): number {
    const p = this.pulls.get(hash);
    if (!p) return 0;
    let n = 0;
    for (const c of p.chunks.values()) n += c.length;
    return n;
  }

  /** The connection is gone: requests in flight will never be answered. */
  lostConnection(): void {
    for (const p of this.pulls.values()) p.inFlight.clear();
  }

  clear(): void {
    this.pulls.clear();
  }
}
