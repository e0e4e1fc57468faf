export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Drops a pending call. */
  cancel: () => void;
}

/**
 * Calls `fn` once calls stop for `wait` ms. With `immediate`, calls it at the start of a burst
 * instead, and not again until the burst has been quiet for `wait` ms.
 */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, wait: number, immediate = false): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastArgs: A | undefined;

  const debounced = (...args: A) => {
    const callNow = immediate && timer === undefined;
    if (timer !== undefined) clearTimeout(timer);
    lastArgs = args;
    timer = setTimeout(() => {
      timer = undefined;
      if (!immediate && lastArgs) fn(...lastArgs);
      lastArgs = undefined;
    }, wait);
    if (callNow) fn(...args);
  };
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    lastArgs = undefined;
  };
  return debounced;
}
