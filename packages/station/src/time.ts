/** The clock a station runs on: the simulator's virtual clock, or real time (`realClock`). */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): number;
  setInterval(fn: () => void, ms: number): number;
  clear(id: number | null | undefined): void;
}

/** The randomness a station draws from (the simulator's seeded streams, or `mathRandom`). */
export interface Rng {
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
  /** An id of `n` characters from [0-9a-z]. */
  id(n: number): string;
}

/** Wall-clock time with Node's timers, for a station on real hardware (the bridge). */
export function realClock(): Clock {
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  let next = 1;
  const add = (t: ReturnType<typeof setTimeout>) => {
    const id = next++;
    timers.set(id, t);
    return id;
  };
  return {
    now: () => Date.now(),
    setTimeout(fn, ms) {
      const id = next;
      return add(
        setTimeout(() => {
          timers.delete(id);
          fn();
        }, ms),
      );
    },
    setInterval: (fn, ms) => add(setInterval(fn, ms)),
    clear(id) {
      if (id === null || id === undefined) return;
      const t = timers.get(id);
      if (t !== undefined) clearTimeout(t);
      timers.delete(id);
    },
  };
}

/** Unseeded randomness (Math.random), for real stations. */
export const mathRandom: Rng = {
  between: (min, max) => min + (max - min) * Math.random(),
  id: (n) => Array.from({ length: n }, () => Math.floor(Math.random() * 36).toString(36)).join(''),
};
