/** True when a write failed on a unique constraint (SQLite or PostgreSQL). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/**
 * Runs a write whose uniqueness was checked beforehand; when a concurrent writer won the race,
 * the constraint answers instead, and it becomes the same refusal as the check's.
 */
export async function onUniqueViolation<T>(write: Promise<T>, refusal: () => Error): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) throw refusal();
    throw err;
  }
}
