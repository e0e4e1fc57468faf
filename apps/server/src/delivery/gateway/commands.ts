import { randomBytes } from 'node:crypto';
import { DEFAULTS } from '@esl/contract/protocol';

/*
 * Open command-window sessions (DELIVERY.md §4.4), in this process: which station each belongs
 * to and which console session opened it, so the station's output goes back to that console only.
 */

export interface CmdSession {
  id: string;
  stationId: number;
  tenantId: number;
  /** The console session (hash of its token) that opened the window. */
  owner: string;
  /** The next `seq` of a line sent down. */
  seq: number;
  expiresAt: number;
  /** Closed by the console: no more lines, but output of the last one still goes back. */
  closed: boolean;
}

/** How long a closed window still carries the output of its last line, ms. */
const CLOSE_GRACE_MS = 30_000;

export class CmdSessions {
  readonly #byId = new Map<string, CmdSession>();
  readonly ttlS: number;

  constructor(ttlS: number = DEFAULTS.cmdTtlS) {
    this.ttlS = ttlS;
  }

  open(stationId: number, tenantId: number, owner: string, now: number): CmdSession {
    // 16 hex digits: the protocol's session is [0-9a-z]{1,16}.
    const s: CmdSession = {
      id: randomBytes(8).toString('hex'),
      stationId,
      tenantId,
      owner,
      seq: 0,
      expiresAt: now + this.ttlS * 1000,
      closed: false,
    };
    this.#byId.set(s.id, s);
    return s;
  }

  /** The live session of this station and owner; a line keeps it open for another TTL. */
  use(id: string, stationId: number, owner: string, now: number): CmdSession | null {
    const s = this.#byId.get(id);
    if (!s || s.closed || s.stationId !== stationId || s.owner !== owner) return null;
    if (s.expiresAt <= now) {
      this.#byId.delete(id);
      return null;
    }
    s.expiresAt = now + this.ttlS * 1000;
    return s;
  }

  /** The session a station's output names, if it is that station's and not expired. */
  of(id: string, stationId: number, now: number): CmdSession | null {
    const s = this.#byId.get(id);
    return s && s.stationId === stationId && s.expiresAt > now ? s : null;
  }

  close(id: string, now: number): void {
    const s = this.#byId.get(id);
    if (!s) return;
    s.closed = true;
    s.expiresAt = Math.min(s.expiresAt, now + CLOSE_GRACE_MS);
  }

  sweep(now: number): void {
    for (const [id, s] of this.#byId) if (s.expiresAt <= now) this.#byId.delete(id);
  }
}
