import { type MigrationResultSet, Migrator } from 'kysely';
import type { Db } from './database';
import { migrations } from './migrations';

/** Applies every pending migration; throws when one fails so the process stops. */
export async function migrateToLatest({ db, dialect }: Db): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    // Branches developed side by side take migration numbers up front; a database that already
    // ran a higher number runs a lower one merged later instead of refusing to start.
    allowUnorderedMigrations: true,
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${String(result.error)}`, { cause: result.error });
  }
  return result;
}
