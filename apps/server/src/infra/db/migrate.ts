import { type MigrationResultSet, Migrator } from 'kysely';
import type { Db } from './database';
import { migrations } from './migrations';

function migratorOf({ db, dialect }: Db): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    // Branches developed side by side take migration numbers up front; a database that already
    // ran a higher number runs a lower one merged later instead of refusing to start.
    allowUnorderedMigrations: true,
  });
}

/** Names of the migrations this code has and the database has not run yet (/readyz). */
export async function pendingMigrations(database: Db): Promise<string[]> {
  const all = await migratorOf(database).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Applies every pending migration; throws when one fails so the process stops. */
export async function migrateToLatest(database: Db): Promise<MigrationResultSet> {
  const result = await migratorOf(database).migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${String(result.error)}`, { cause: result.error });
  }
  return result;
}
