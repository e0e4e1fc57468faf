import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLOSE_SESSION_EXPIRED, HEARTBEAT, NoticeClient, noticeUrl, type SocketLike } from './notice';

class FakeSocket implements SocketLike {
  sent: string[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.({ code: 1006 });
  }
}

describe('NoticeClient (SPEC.md §4)', () => {
  let sockets: FakeSocket[];
  let notices: unknown[];
  let client: NoticeClient;

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
    notices = [];
    client = new NoticeClient({
      url: 'ws://x/sys/eslnotice?token=t',
      connect: () => {
        const s = new FakeSocket();
        sockets.push(s);
        return s;
      },
      onNotice: (n) => notices.push(n),
    });
    client.start();
    sockets[0].onopen?.();
  });
  afterEach(() => {
    client.stop();
    vi.useRealTimers();
  });

  it("sends 'heart beat' every 300 000 ms", () => {
    vi.advanceTimersByTime(299_999);
    expect(sockets[0].sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sockets[0].sent).toEqual([HEARTBEAT]);
    sockets[0].onmessage?.({ data: HEARTBEAT });
    vi.advanceTimersByTime(300_000);
    expect(sockets[0].sent).toEqual([HEARTBEAT, HEARTBEAT]);
  });

  it('hands JSON notices on and ignores the rest', () => {
    sockets[0].onmessage?.({ data: JSON.stringify({ type: 'tag.updated', id: 3 }) });
    sockets[0].onmessage?.({ data: 'not json' });
    sockets[0].onmessage?.({ data: HEARTBEAT });
    expect(notices).toEqual([{ type: 'tag.updated', id: 3 }]);
  });

  it('closes after 900 000 ms of server silence and reconnects 5000 ms later', () => {
    // Heartbeats go out but nothing comes back.
    vi.advanceTimersByTime(899_999);
    expect(sockets[0].closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(sockets[0].closed).toBe(true);
    vi.advanceTimersByTime(4999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
  });

  it('any message from the server keeps the link alive', () => {
    vi.advanceTimersByTime(800_000);
    sockets[0].onmessage?.({ data: HEARTBEAT });
    vi.advanceTimersByTime(800_000);
    expect(sockets[0].closed).toBe(false);
  });

  it('reconnects 5000 ms after an error', () => {
    sockets[0].onerror?.();
    expect(sockets[0].closed).toBe(true);
    vi.advanceTimersByTime(5000);
    expect(sockets).toHaveLength(2);
  });

  it('does not reconnect when the server says the session is gone, nor after stop', () => {
    sockets[0].onclose?.({ code: CLOSE_SESSION_EXPIRED });
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);

    client.stop();
    client.start();
    expect(sockets).toHaveLength(2);
    client.stop();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(2);
    expect(sockets[1].closed).toBe(true);
  });

  it('builds the socket URL from the page address', () => {
    // No token in it: the browser sends the session cookie with the upgrade.
    expect(noticeUrl({ protocol: 'http:', host: '10.0.0.5:8080' })).toBe('ws://10.0.0.5:8080/sys/eslnotice');
    expect(noticeUrl({ protocol: 'https:', host: 'esl.example' })).toBe('wss://esl.example/sys/eslnotice');
  });
});
