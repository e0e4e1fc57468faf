/** A length of time as the price check words it: minutes, hours and minutes, or days and hours. */
export type Duration =
  | { key: 'duration.minutes'; vars: { count: number } }
  | { key: 'duration.hours'; vars: { hours: number; minutes: number } }
  | { key: 'duration.days'; vars: { days: number; hours: number } };

/** How long since `since` at `now` (whole minutes, at least 0). */
export function durationSince(since: number, now: number): Duration {
  const minutes = Math.max(0, Math.floor((now - since) / 60_000));
  if (minutes < 60) return { key: 'duration.minutes', vars: { count: minutes } };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { key: 'duration.hours', vars: { hours, minutes: minutes % 60 } };
  return { key: 'duration.days', vars: { days: Math.floor(hours / 24), hours: hours % 24 } };
}
