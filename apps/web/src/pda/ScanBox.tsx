import { type FormEvent, lazy, Suspense, useState } from 'react';
import { usePda } from './context';
import { useWedge } from './useWedge';

const CameraView = lazy(() => import('./CameraView'));

/**
 * Where a code comes in: a keyboard-wedge scanner (anywhere on the page), the camera, or typed
 * into the field and sent with Go.
 */
export function ScanBox({
  prompt,
  label,
  onScan,
  busy = false,
  testId,
}: {
  prompt: string;
  label: string;
  onScan: (code: string) => void;
  busy?: boolean;
  testId: string;
}) {
  const { t } = usePda();
  const [text, setText] = useState('');
  const [camera, setCamera] = useState(false);
  useWedge(onScan, !busy && !camera);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = text.trim();
    if (!code || busy) return;
    setText('');
    onScan(code);
  };

  return (
    <section className="scan" data-testid={testId}>
      <h2 className="prompt">{prompt}</h2>
      <form className="scan-row" onSubmit={submit}>
        <input
          className="field"
          aria-label={label}
          placeholder={label}
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoCapitalize="characters"
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          enterKeyHint="go"
          data-testid="scan-input"
        />
        <button type="submit" className="btn" disabled={busy || !text.trim()} data-testid="scan-go">
          {t('go')}
        </button>
      </form>
      <button type="button" className="btn btn-camera" onClick={() => setCamera(true)} data-testid="camera-open">
        <svg className="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M4 7h3l2-2h6l2 2h3a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z" />
          <circle cx="12" cy="13" r="3.5" />
        </svg>
        {t('camera')}
      </button>
      <p className="hint">{t('scanHint')}</p>
      {camera && (
        <Suspense fallback={null}>
          <CameraView
            onClose={() => setCamera(false)}
            onCode={(code) => {
              setCamera(false);
              onScan(code);
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
