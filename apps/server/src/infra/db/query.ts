import { type Compilable, CompiledQuery, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from './schema';

/** Case-insensitive "contains" that treats % and _ in the user's text literally. */
export function contains(column: string, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`;
}

/** The LIKE pattern `contains` uses: its one parameter. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function offsetOf(paging: { page: number; limit: number }): number {
  return (paging.page - 1) * paging.limit;
}

/**
 * SQL texts of the hot queries (a small, fixed set): on PostgreSQL they run as named prepared
 * statements, so each connection parses and plans them once instead of on every request.
 */
const hot = new Map<string, string>();

function markHot(text: string): void {
  if (!hot.has(text)) hot.set(text, `esl_${hot.size + 1}`);
}

/** The prepared-statement name of a hot SQL text, if it is one. */
export function hotStatementName(text: string): string | undefined {
  return hot.get(text);
}

const texts = new WeakMap<Kysely<Database>, Map<string, string>>();
const warned = new Set<string>();

/**
 * Runs a hot query whose SQL text depends only on `key`, building and compiling it with Kysely
 * only the first time (per database handle): building costs several times what running a small
 * query does. `args` are the query's parameters in order; the first run checks them against what
 * Kysely compiled, and when they differ the query is simply not cached (slower, never wrong).
 */
export async function runCached<R>(
  db: Kysely<Database>,
  key: string,
  args: readonly unknown[],
  build: () => Compilable<R>,
): Promise<R[]> {
  let cache = texts.get(db);
  if (!cache) {
    cache = new Map();
    texts.set(db, cache);
  }
  const text = cache.get(key);
  if (text !== undefined) return (await db.executeQuery<R>(CompiledQuery.raw(text, [...args]))).rows;
  const compiled = build().compile();
  const same = compiled.parameters.length === args.length && compiled.parameters.every((p, i) => p === args[i]);
  if (same) {
    cache.set(key, compiled.sql);
    markHot(compiled.sql);
  } else if (!warned.has(key)) {
    warned.add(key);
    console.warn(`runCached(${key}): parameters differ from the arguments; not cached`);
  }
  return (await db.executeQuery(compiled)).rows;
}

/** A hot query whose parameters are exactly its arguments, in order (see runCached). */
export function compiledOnce<A extends readonly unknown[], R>(
  key: string,
  build: (db: Kysely<Database>, ...args: A) => Compilable<R>,
): (db: Kysely<Database>, ...args: A) => Promise<R[]> {
  return (db, ...args) => runCached(db, key, args, () => build(db, ...args));
}
