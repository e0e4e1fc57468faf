import { useEffect } from 'react';
import { browserSocket, NoticeClient, noticeUrl, publishNotice } from '../../platform/notice';
import { useUserStore } from '../../store/user';

/** Keeps the live notice socket open while the signed-in layout is shown. */
export function useNoticeSocket(): void {
  const token = useUserStore((s) => s.token);
  useEffect(() => {
    if (!token || typeof WebSocket === 'undefined') return;
    const client = new NoticeClient({
      // The token (the effect's key: a new session opens a new socket) rides in its cookie.
      url: noticeUrl(window.location),
      connect: browserSocket,
      onNotice: publishNotice,
    });
    client.start();
    return () => client.stop();
  }, [token]);
}
