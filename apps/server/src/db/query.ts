import { type RawBuilder, type SqlBool, sql } from 'kysely';

/** Case-insensitive "contains" that treats % and _ in the user's text literally. */
export function contains(column: string, text: string): RawBuilder<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

export function offsetOf(paging: { page: number; limit: number }): number {
  return (paging.page - 1) * paging.limit;
}
