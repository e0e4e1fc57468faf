import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

/**
 * Follows the MQTT framing of an incoming byte stream (fixed header, remaining length, body) and
 * says when a packet announces more than `maxBytes`. aedes has no packet-size limit of its own and
 * would buffer a 10 MB PUBLISH whole before any handler could refuse it.
 */
export class PacketSizeTracker {
  private state: 'type' | 'length' | 'body' = 'type';
  private remaining = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private readonly limit: () => number;

  /** `maxBytes`: a number, or read at each packet (a smaller limit before login). */
  constructor(maxBytes: number | (() => number)) {
    this.limit = typeof maxBytes === 'number' ? () => maxBytes : maxBytes;
  }

  get maxBytes(): number {
    return this.limit();
  }

  /** Feeds bytes; returns the announced size of the first oversized packet, or 0 while all is well. */
  feed(chunk: Uint8Array): number {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'type') {
        i++;
        this.state = 'length';
        this.remaining = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
      } else if (this.state === 'length') {
        const b = chunk[i++];
        this.remaining += (b & 0x7f) * this.multiplier;
        this.multiplier *= 128;
        this.lengthBytes++;
        if (this.remaining + 1 + this.lengthBytes > this.maxBytes) return this.remaining + 1 + this.lengthBytes;
        if ((b & 0x80) === 0) this.state = this.remaining === 0 ? 'type' : 'body';
        else if (this.lengthBytes === 4) return Number.MAX_SAFE_INTEGER; // malformed length
      } else {
        const take = Math.min(this.remaining, chunk.length - i);
        i += take;
        this.remaining -= take;
        if (this.remaining === 0) this.state = 'type';
      }
    }
    return 0;
  }
}

/**
 * The socket as aedes should see it: the same bytes both ways, except that the connection is
 * destroyed as soon as a packet announces more than `maxBytes` (before its body is read).
 */
export function guardPacketSize(
  socket: Socket,
  maxBytes: number | (() => number),
  onTooLarge: (bytes: number) => void,
  /** Before login (`loggedIn` false) at most `bytes` may arrive in all; more closes the connection. */
  beforeLogin?: { loggedIn: () => boolean; bytes: number },
): Duplex {
  const tracker = new PacketSizeTracker(maxBytes);
  let received = 0;
  const guarded = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk, _enc, cb) {
      socket.write(chunk, cb);
    },
    final(cb) {
      socket.end(cb);
    },
    destroy(err, cb) {
      socket.destroy();
      cb(err);
    },
  });
  socket.on('data', (chunk: Buffer) => {
    if (beforeLogin && !beforeLogin.loggedIn()) {
      received += chunk.length;
      if (received > beforeLogin.bytes) {
        onTooLarge(received);
        socket.destroy();
        return;
      }
    }
    const tooLarge = tracker.feed(chunk);
    if (tooLarge > 0) {
      onTooLarge(tooLarge);
      socket.destroy();
      return;
    }
    if (!guarded.push(chunk)) socket.pause();
  });
  socket.on('end', () => guarded.push(null));
  socket.on('error', (err) => guarded.destroy(err));
  socket.on('close', () => guarded.destroy());
  return guarded;
}
