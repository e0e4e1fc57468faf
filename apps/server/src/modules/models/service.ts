import { findTagModel, type LearnedTagModel, type TagColourType } from '@esl/contract';
import type { LearnedModel } from '@esl/contract/protocol';
import type { Kysely } from 'kysely';
import { type CallContext, requireTenant } from '../../api/context';
import type { Database } from '../../infra/db/schema';
import { presentLearned } from './presenter';
import * as repo from './repository';

/*
 * Tag models: the catalogue's, and the ones stations teach (docs/PROTOCOL.md §5.13). A learned
 * model belongs to the tenant whose station described it; every look-up names the tenant, so one
 * tenant never sees another's.
 */

export type { LearnedModelRow } from './repository';

/** A learned model's key (`oepl-35`): not a catalogue code. */
export const isLearnedKey = (code: string) => /^[a-z]{1,16}-[0-9A-Za-z-]{1,28}$/.test(code);

/** What drawing a label for a tag needs of its model, catalogue or learned. */
export interface Panel {
  code: string;
  name: string;
  w: number;
  h: number;
  /** Row padding and extra rows of the panel controller (learned models: rows padded to bytes). */
  wext: number;
  hexit: number;
  /** Colour types it is made in, its usual first; empty: none we can draw (a learned model's null). */
  colours: TagColourType[];
  /** Made with an NFC chip (the catalogue's flag, or what the station said of a learned model). */
  nfc: boolean;
  learned: LearnedTagModel | null;
}

/** The tenant's learned models by key. */
export async function learnedModels(
  db: Kysely<Database>,
  tenantId: number,
  keys?: readonly string[],
): Promise<Map<string, LearnedTagModel>> {
  const rows = await repo.listLearned(db, tenantId, keys);
  return new Map(rows.map((r) => [r.key, presentLearned(r)]));
}

/** The learned models among `codes` (catalogue codes are left out), for a tenant. */
export async function learnedAmong(
  db: Kysely<Database>,
  tenantId: number,
  codes: Iterable<string>,
): Promise<Map<string, LearnedTagModel>> {
  const keys = [...new Set([...codes].filter(isLearnedKey))];
  return keys.length === 0 ? new Map() : learnedModels(db, tenantId, keys);
}

/** A model by its code: the catalogue's, else a learned one of `learned`; undefined when neither. */
export function panelOf(code: string, learned: ReadonlyMap<string, LearnedTagModel>): Panel | undefined {
  const m = findTagModel(code);
  if (m)
    return {
      code: m.code,
      name: m.name,
      w: m.w,
      h: m.h,
      wext: m.wext,
      hexit: m.hexit,
      colours: m.colours,
      nfc: m.nfc,
      learned: null,
    };
  const l = learned.get(code);
  if (!l) return undefined;
  return {
    code: l.key,
    name: l.name,
    w: l.w,
    h: l.h,
    wext: (8 - (l.w % 8)) % 8,
    hexit: 0,
    colours: l.colourType ? [l.colourType] : [],
    nfc: l.nfc,
    learned: l,
  };
}

/** Stores a station's `up/models`; answers the keys that are new or changed. */
export function saveLearned(
  db: Kysely<Database>,
  tenantId: number,
  stationId: number,
  models: readonly LearnedModel[],
  now: number,
): Promise<string[]> {
  return repo.upsertLearned(db, tenantId, stationId, models, now);
}

/** The console's list: every model the caller's tenant learned. */
export async function list(ctx: CallContext): Promise<LearnedTagModel[]> {
  const caller = requireTenant(ctx);
  return [...(await learnedModels(ctx.services.db, caller.tenantId)).values()];
}
