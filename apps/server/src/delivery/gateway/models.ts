import type { LearnedTagModel } from '@esl/contract';
import type { ModelsMsg } from '@esl/contract/protocol';
import * as models from '../../modules/models/service';
import { relabelTags, tasksChanged } from '../../outbox/slots/enqueue';
import type { GatewayCore } from './core';
import type { StationIdentity } from './repository';
import * as tagsRepo from './tags/repository';

/*
 * Learned tag models (docs/PROTOCOL.md §5.13): what a station says of the types its vendor's tags
 * are, stored for the station's tenant only. Tags reported with a key take its model; a model
 * whose size or colours changed draws its tags' labels again.
 */

/** A station's `up/models`: stored; tags reported with a new key take it, changed ones relabel. */
export async function onModels(core: GatewayCore, station: StationIdentity, m: ModelsMsg): Promise<void> {
  const { db } = core;
  const t = core.now();
  const changed = await models.saveLearned(db, station.tenant_id, station.id, m.models, t);
  if (changed.length === 0) return;
  core.counters.learnedModels += changed.length;
  const learned = await models.learnedModels(db, station.tenant_id, changed);
  const touched = await tagsRepo.tagsOfModels(db, station.tenant_id, changed);
  for (const model of learned.values()) {
    // Tags reported with the key before the model was described take it now.
    touched.push(...(await tagsRepo.adoptModel(db, station.tenant_id, model.key, model.colourType, null)));
  }
  await relabel(core, station.tenant_id, touched);
}

/**
 * Tags of a report whose entries name a known learned key other than their model take it
 * (`byKey`: tag ids by key), then draw their labels again.
 */
export async function adoptReported(
  core: GatewayCore,
  tenantId: number,
  byKey: ReadonlyMap<string, number[]>,
  learned: ReadonlyMap<string, LearnedTagModel>,
): Promise<void> {
  const touched: Array<{ id: number; store_id: number }> = [];
  for (const [key, ids] of byKey) {
    const model = learned.get(key);
    if (model) touched.push(...(await tagsRepo.adoptModel(core.db, tenantId, key, model.colourType, ids)));
  }
  await relabel(core, tenantId, touched);
}

async function relabel(core: GatewayCore, tenantId: number, tags: ReadonlyArray<{ id: number; store_id: number }>) {
  if (tags.length === 0) return;
  const byStore = new Map<number, number[]>();
  for (const { id, store_id } of tags) byStore.set(store_id, [...(byStore.get(store_id) ?? []), id]);
  const t = core.now();
  for (const [storeId, ids] of byStore) {
    await relabelTags(core.db, { tenantId, storeId }, [...new Set(ids)], t);
    core.notices.broadcast(tenantId, { type: 'tag.changed', storeId, ids: [...new Set(ids)] });
  }
  tasksChanged();
}
