import { NOTICE_HEARTBEAT_MS, NOTICE_RECONNECT_MS, NOTICE_SILENCE_TIMEOUT_MS, NOTICE_SOCKET_PATH } from '@esl/contract';

export const HEARTBEAT = 'heart beat';
/** The server closes with this code when the session is gone; reconnecting would not help. */
export const CLOSE_SESSION_EXPIRED = 4800;

export interface Notice {
  type: string;
  [key: string]: unknown;
}

/** The part of a WebSocket this client uses (a stub in tests). */
export interface SocketLike {
  send(text: string): void;
  close(): void;
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: (() => void) | null;
}

export interface NoticeClientOptions {
  /** Opens a socket to the URL. */
  connect: (url: string) => SocketLike;
  url: string;
  onNotice: (notice: Notice) => void;
  heartbeatMs?: number;
  silenceMs?: number;
  reconnectMs?: number;
}

/**
 * The live notice socket of SPEC.md §4: sends 'heart beat' every 300 000 ms, treats 900 000 ms
 * without a word from the server as a dead link, and reconnects 5000 ms after a close or error.
 */
export class NoticeClient {
  #socket: SocketLike | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #silence: ReturnType<typeof setTimeout> | undefined;
  #reconnect: ReturnType<typeof setTimeout> | undefined;
  #stopped = true;
  readonly #o: Required<NoticeClientOptions>;

  constructor(options: NoticeClientOptions) {
    this.#o = {
      heartbeatMs: NOTICE_HEARTBEAT_MS,
      silenceMs: NOTICE_SILENCE_TIMEOUT_MS,
      reconnectMs: NOTICE_RECONNECT_MS,
      ...options,
    };
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#open();
  }

  stop(): void {
    this.#stopped = true;
    this.#clearTimers();
    clearTimeout(this.#reconnect);
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket) {
      socket.onclose = null;
      socket.close();
    }
  }

  #open(): void {
    let socket: SocketLike;
    try {
      socket = this.#o.connect(this.#o.url);
    } catch {
      this.#scheduleReconnect();
      return;
    }
    this.#socket = socket;
    socket.onopen = () => {
      this.#heartbeat = setInterval(() => socket.send(HEARTBEAT), this.#o.heartbeatMs);
      this.#armSilence();
    };
    socket.onmessage = (event) => {
      this.#armSilence();
      const text = typeof event.data === 'string' ? event.data : '';
      if (!text || text === HEARTBEAT) return;
      try {
        const notice: unknown = JSON.parse(text);
        if (notice && typeof notice === 'object' && typeof (notice as Notice).type === 'string') {
          this.#o.onNotice(notice as Notice);
        }
      } catch {
        // Not a notice; ignore it.
      }
    };
    socket.onerror = () => socket.close();
    socket.onclose = (event) => {
      this.#clearTimers();
      this.#socket = undefined;
      if (event.code === CLOSE_SESSION_EXPIRED) return;
      this.#scheduleReconnect();
    };
  }

  #armSilence(): void {
    clearTimeout(this.#silence);
    this.#silence = setTimeout(() => this.#socket?.close(), this.#o.silenceMs);
  }

  #clearTimers(): void {
    clearInterval(this.#heartbeat);
    clearTimeout(this.#silence);
    this.#heartbeat = undefined;
    this.#silence = undefined;
  }

  #scheduleReconnect(): void {
    if (this.#stopped) return;
    clearTimeout(this.#reconnect);
    this.#reconnect = setTimeout(() => {
      if (!this.#stopped) this.#open();
    }, this.#o.reconnectMs);
  }
}

/**
 * ws(s)://<this host>/sys/eslnotice: the session goes in the ESL-Token cookie the browser sends
 * with the upgrade, never in the URL (proxies and access logs keep URLs).
 */
export function noticeUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${NOTICE_SOCKET_PATH}`;
}

const listeners = new Set<(notice: Notice) => void>();

/** Pages listen to live notices here; the answer unsubscribes. */
export function subscribeNotices(listener: (notice: Notice) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Hands a notice to every listener (the layout's socket calls it). */
export function publishNotice(notice: Notice): void {
  for (const listener of listeners) listener(notice);
}

/** A browser WebSocket seen through SocketLike. */
export function browserSocket(url: string): SocketLike {
  const ws = new WebSocket(url);
  const socket: SocketLike = {
    send: (text) => ws.send(text),
    close: () => ws.close(),
    onopen: null,
    onmessage: null,
    onclose: null,
    onerror: null,
  };
  ws.onopen = () => socket.onopen?.();
  ws.onmessage = (event) => socket.onmessage?.({ data: event.data });
  ws.onclose = (event) => socket.onclose?.({ code: event.code });
  ws.onerror = () => socket.onerror?.();
  return socket;
}
