import { useEffect, useRef } from 'react';
import { WedgeBuffer } from './wedge';

/** Whether a key event is typed into a field (the field handles it; the wedge listener does not). */
function inField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Calls `onScan` with each code a keyboard-wedge scanner types while no field has the focus. */
export function useWedge(onScan: (code: string) => void, enabled = true): void {
  const latest = useRef(onScan);
  latest.current = onScan;
  useEffect(() => {
    if (!enabled) return;
    const buffer = new WedgeBuffer();
    const onKey = (event: KeyboardEvent) => {
      if (inField(event.target) || event.isComposing) return;
      const code = buffer.key(event.key, event.timeStamp);
      if (code === null) return;
      // The scanner's Enter must not also press the button that has the focus.
      event.preventDefault();
      latest.current(code);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled]);
}
