import type { Kysely } from 'kysely';
import type { Database } from '../infra/db/schema';

// The shape of a seed step, apart from seed.ts (which runs the steps) so the steps do not import it.

/** What each seed step can use; steps add what they create so later steps can build on it. */
export interface SeedContext {
  db: Kysely<Database>;
  now: number;
  /** argon2id(sha256hex('demo123')), computed once. */
  passwordHash: string;
  tenantId: number;
  /** Demo stores by code. */
  stores: Map<string, number>;
  /** Demo users by username. */
  users: Map<string, number>;
  /** Demo templates this run added, by name (the rules step gives only these their rules). */
  templatesAdded?: Map<string, number>;
}

/**
 * One idempotent step of the demo data: it must find what an earlier run created and only add
 * what is missing.
 */
export interface SeedStep {
  name: string;
  run(ctx: SeedContext): Promise<void>;
}
