import { hostname } from 'node:os';

/*
 * The process's own lines (start-up, shutdown, fatal errors) outside Fastify's request log
 * (issue 26 item 5). In production every line is one JSON object in pino's shape (`level` as a
 * number, `time` in Unix ms, `pid`, `hostname`, `msg`), the same as the request log beside it, so a
 * shipper that parses JSON keeps exactly the fatal lines too. The demo (`--demo`) prints the human
 * banner instead: plain text, a line each.
 */

export type LineLevel = 'info' | 'warn' | 'error' | 'fatal';

const PINO_LEVELS: Record<LineLevel, number> = { info: 30, warn: 40, error: 50, fatal: 60 };

let human = false;

/** Plain-text lines (the demo's banner) instead of JSON. */
export function setHumanLines(on: boolean): void {
  human = on;
}

/** An error as pino's `err` serializer writes it: type, message, stack. */
export function serializeError(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { type: err.name, message: err.message, stack: err.stack };
  return { type: typeof err, message: String(err) };
}

/** One line as the log would carry it (exported for the tests). */
export function formatLine(
  level: LineLevel,
  msg: string,
  fields: Record<string, unknown> = {},
  now = Date.now(),
): string {
  if (human) {
    const err = fields.err instanceof Error ? `\n${fields.err.stack ?? fields.err.message}` : '';
    return `${msg}${err}`;
  }
  const extra = Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, v instanceof Error ? serializeError(v) : v]),
  );
  return JSON.stringify({
    level: PINO_LEVELS[level],
    time: now,
    pid: process.pid,
    hostname: hostname(),
    ...extra,
    msg,
  });
}

/** Writes one line: info and warn to stdout, error and fatal to stderr. */
export function logLine(level: LineLevel, msg: string, fields?: Record<string, unknown>): void {
  const line = `${formatLine(level, msg, fields)}\n`;
  if (level === 'info' || level === 'warn') process.stdout.write(line);
  else process.stderr.write(line);
}
