/**
 * What a settings form takes from a new answer: the fields whose stored value changed since the
 * answer it last took (all of them the first time). A refetch that answers what was already
 * stored (the view reloading after another card's save, a window regaining focus) leaves alone
 * what the user is typing; a save, whose answer holds the new stored values, fills them in.
 */
export function refill<V extends object>(previous: Partial<V> | undefined, next: Partial<V>): Partial<V> {
  if (!previous) return { ...next };
  const out: Partial<V> = {};
  for (const key of Object.keys(next) as (keyof V)[]) {
    if (!Object.is(previous[key], next[key])) out[key] = next[key];
  }
  return out;
}
