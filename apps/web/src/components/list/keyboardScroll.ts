import { useEffect } from 'react';

/**
 * A table wider than its card scrolls sideways; when its rows hold no button (a log), a keyboard
 * could not reach that scroll. The scrolling box then takes the focus itself, named for the list
 * (axe-core scrollable-region-focusable, issue 27 item 10).
 */
export function useKeyboardScroll(box: { current: HTMLElement | null }, name: string): void {
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const mark = () => {
      for (const region of el.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body')) {
        if (region.scrollWidth > region.clientWidth || region.scrollHeight > region.clientHeight) {
          if (region.tabIndex < 0) region.tabIndex = 0;
          region.setAttribute('role', 'region');
          region.setAttribute('aria-label', name);
        } else if (region.getAttribute('role') === 'region') {
          region.removeAttribute('tabindex');
          region.removeAttribute('role');
          region.removeAttribute('aria-label');
        }
      }
    };
    mark();
    const observer = new ResizeObserver(mark);
    observer.observe(el);
    const rows = new MutationObserver(mark);
    rows.observe(el, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      rows.disconnect();
    };
  }, [box, name]);
}
