import type { LearnedModel } from '@esl/contract/protocol';
import type { Kysely, Selectable } from 'kysely';
import type { Database, LearnedModelTable } from '../../infra/db/schema';

/* SQL of learned tag models (docs/PROTOCOL.md §5.13): per tenant, by key. */

type Db = Kysely<Database>;
export type LearnedModelRow = Selectable<LearnedModelTable> & { station_sn: string | null };

/** The tenant's learned models (with the serial of the station that taught each), newest first. */
export function listLearned(db: Db, tenantId: number, keys?: readonly string[]): Promise<LearnedModelRow[]> {
  let q = db
    .selectFrom('learned_models as m')
    .leftJoin('stations as s', (j) => j.onRef('s.id', '=', 'm.station_id').onRef('s.tenant_id', '=', 'm.tenant_id'))
    .selectAll('m')
    .select('s.sn as station_sn')
    .where('m.tenant_id', '=', tenantId);
  if (keys) {
    if (keys.length === 0) return Promise.resolve([]);
    q = q.where('m.key', 'in', keys);
  }
  return q.orderBy('m.updated_at', 'desc').orderBy('m.id', 'desc').execute();
}

/**
 * Stores what a station of the tenant said of its models: a new key is inserted, a known one
 * takes the latest description. Answers the keys whose description changed (or are new).
 */
export async function upsertLearned(
  db: Db,
  tenantId: number,
  stationId: number,
  models: readonly LearnedModel[],
  now: number,
): Promise<string[]> {
  if (models.length === 0) return [];
  const before = new Map(
    (
      await listLearned(
        db,
        tenantId,
        models.map((m) => m.key),
      )
    ).map((r) => [r.key, r]),
  );
  const changed: string[] = [];
  for (const m of models) {
    const row = {
      name: m.name,
      w: m.w,
      h: m.h,
      colours: JSON.stringify(m.colours),
      colour_type: m.colourType,
      rotate: m.rotate,
      led: m.led ? 1 : 0,
      button: m.button ? 1 : 0,
      nfc: m.nfc ? 1 : 0,
      source: m.source,
    };
    const old = before.get(m.key);
    const same =
      old !== undefined && (Object.keys(row) as (keyof typeof row)[]).every((k) => String(old[k]) === String(row[k]));
    if (same && old.station_id === stationId) continue;
    if (!same) changed.push(m.key);
    await db
      .insertInto('learned_models')
      .values({ tenant_id: tenantId, key: m.key, ...row, station_id: stationId, created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'key']).doUpdateSet({ ...row, station_id: stationId, updated_at: now }),
      )
      .execute();
  }
  return changed;
}
