import { useEffect, useRef, useState } from 'react';
import { frameReader, openCamera } from './camera';
import { usePda } from './context';

/** How often a frame is read, ms: fast enough to feel instant, slow enough for a cheap phone. */
const FRAME_MS = 200;

/** A full-screen camera view that answers the first barcode it sees. */
export default function CameraView({ onCode, onClose }: { onCode: (code: string) => void; onClose: () => void }) {
  const { t } = usePda();
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<'starting' | 'scanning' | 'unavailable'>('starting');
  const latest = useRef(onCode);
  latest.current = onCode;

  useEffect(() => {
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    (async () => {
      try {
        const opened = await openCamera();
        stream = opened;
        // Closed while the camera was starting: the cleanup has run already, so stop it here.
        if (stopped || !video.current) {
          for (const track of opened.getTracks()) track.stop();
          return;
        }
        video.current.srcObject = stream;
        await video.current.play();
        const read = await frameReader();
        if (stopped) return;
        setState('scanning');
        const tick = async () => {
          if (stopped || !video.current) return;
          const code = await read(video.current).catch(() => null);
          if (stopped) return;
          if (code) latest.current(code);
          else timer = setTimeout(tick, FRAME_MS);
        };
        void tick();
      } catch {
        if (!stopped) setState('unavailable');
      }
    })();
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);

  return (
    <div className="camera" role="dialog" aria-modal="true" aria-label={t('cameraTitle')} data-testid="camera">
      <p className="camera-title">{state === 'unavailable' ? t('cameraUnavailable') : t('cameraTitle')}</p>
      <video ref={video} className="camera-video" muted playsInline data-state={state} />
      {state === 'starting' && <p className="camera-title">{t('cameraLoading')}</p>}
      <button type="button" className="btn btn-wide" onClick={onClose} data-testid="camera-close">
        {t('cameraClose')}
      </button>
    </div>
  );
}
