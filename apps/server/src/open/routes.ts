import type { OpenCallName, OpenCalls } from '@esl/contract';
import { ErrorCode } from '@esl/contract';
import type { z } from 'zod';
import type { CallContext } from '../api/context';
import { AppError, notFound } from '../api/errors';
import type { ListResult } from '../api/handlers';
import * as callbacks from '../modules/callbacks/service';
import * as products from '../modules/products/service';
import * as promotions from '../modules/promotions/service';
import * as schedule from '../modules/schedule/service';
import * as stores from '../modules/stores/service';
import * as tags from '../modules/tags/service';
import { presentOpenStore, presentOpenTag } from './presenter';
import { lastTagResults } from './repository';

type Answer<N extends OpenCallName> = OpenCalls[N]['list'] extends true
  ? ListResult<z.output<OpenCalls[N]['data']>>
  : z.output<OpenCalls[N]['data']>;
export type OpenHandler<N extends OpenCallName> = (
  ctx: CallContext,
  body: z.output<OpenCalls[N]['body']>,
) => Promise<Answer<N>>;
export type OpenHandlerMap = { [N in OpenCallName]?: OpenHandler<N> };

/**
 * Makes the store named by its code the call's current store, so the console's services act on
 * it. A code the key's tenant does not have (another tenant's included) is not found.
 */
async function atStore(ctx: CallContext, code: string) {
  const caller = ctx.caller;
  if (!caller || caller.tenantId === null) throw new AppError(ErrorCode.OPEN_KEY_INVALID);
  const store = await stores.findByCode(ctx.services.db, caller.tenantId, code);
  if (!store) throw notFound();
  caller.storeId = store.id;
  return { tenantId: caller.tenantId, storeId: store.id, userId: caller.userId };
}

/**
 * The integration calls, through the same services as the console's (so their rules, and what
 * the delivery layer hooks onto them, hold for both).
 */
export const openHandlers: OpenHandlerMap = {
  openUpsertProducts: async (ctx, body) => {
    await atStore(ctx, body.store);
    return products.upsertByBarcode(ctx, body.products);
  },
  openDeleteProducts: async (ctx, body) => {
    await atStore(ctx, body.store);
    return products.removeByBarcodes(ctx, body.barcodes);
  },
  openScheduleProducts: async (ctx, body) => {
    await atStore(ctx, body.store);
    const items = body.changes.map(({ barcode, ...changes }) => ({ barcode, at: body.at, changes }));
    return schedule.addForBarcodes(ctx, items, body.scope, body.note);
  },
  openScheduleList: async (ctx, body) => {
    await atStore(ctx, body.store);
    return schedule.listByBarcode(ctx, body);
  },
  openScheduleCancel: async (ctx, body) => {
    await atStore(ctx, body.store);
    return { cancelled: await schedule.cancel(ctx, body.ids) };
  },
  openScheduleEdit: async (ctx, { store, id, ...patch }) => {
    await atStore(ctx, store);
    return schedule.edit(ctx, id, patch);
  },
  // Promotions (docs/PROMOTIONS.md): the console's service on the store the code names.
  openPromotionList: async (ctx, { store, ...f }) => {
    await atStore(ctx, store);
    return promotions.list(ctx, f);
  },
  openAddPromotion: async (ctx, { store, ...body }) => {
    await atStore(ctx, store);
    return promotions.add(ctx, body);
  },
  openEditPromotion: async (ctx, { store, id, ...patch }) => {
    await atStore(ctx, store);
    return promotions.edit(ctx, id, patch);
  },
  openCancelPromotion: async (ctx, body) => {
    await atStore(ctx, body.store);
    return { cancelled: await promotions.cancel(ctx, body.ids) };
  },
  openBindTags: async (ctx, body) => {
    const at = await atStore(ctx, body.store);
    // All or nothing: every tag and every product is checked before the first binding.
    await tags.idsOfHardwareIds(
      ctx,
      body.bindings.map((b) => b.hardwareId),
    );
    const wanted = [...new Set(body.bindings.map((b) => b.barcode))];
    const found = await Promise.all(wanted.map((barcode) => products.findByBarcode(ctx.services.db, at, barcode)));
    const missing = wanted.find((_, i) => !found[i]);
    if (missing !== undefined) throw notFound({ kind: 'barcode', value: missing });
    for (const b of body.bindings) await tags.bind(ctx, b.hardwareId, b.barcode);
    ctx.target = {
      kind: 'tags',
      names: body.bindings.slice(0, 20).map((b) => `${b.hardwareId}→${b.barcode}`),
      count: body.bindings.length,
    };
    return { bound: body.bindings.length };
  },
  openUnbindTags: async (ctx, body) => {
    await atStore(ctx, body.store);
    const ids = await tags.idsOfHardwareIds(ctx, body.hardwareIds);
    return { unbound: await tags.unbind(ctx, ids) };
  },
  openTagList: async (ctx, body) => {
    const at = await atStore(ctx, body.store);
    const { rows, count } = await tags.list(ctx, {
      page: body.page,
      limit: body.limit,
      status: body.status,
      bound: body.bound,
      sort: 'id',
      order: 'asc',
    });
    const last = new Map(
      (
        await lastTagResults(
          ctx.services.db,
          at,
          rows.map((r) => r.id),
        )
      ).map((r) => [r.tag_id, r]),
    );
    return { rows: rows.map((r) => presentOpenTag(r, last.get(r.id))), count };
  },
  openRefreshTags: async (ctx, body) => {
    await atStore(ctx, body.store);
    const ids = await tags.idsOfHardwareIds(ctx, body.hardwareIds);
    return tags.refresh(ctx, ids, body.force);
  },
  openLedTags: async (ctx, body) => {
    await atStore(ctx, body.store);
    const ids = await tags.idsOfHardwareIds(ctx, body.hardwareIds);
    return tags.flashLed(ctx, ids, body.led);
  },
  openRequestProgress: async (ctx, body) => {
    const p = await tags.progressWithResults(ctx, body.requestId);
    return {
      requestId: p.id,
      kind: p.kind,
      status: p.status,
      total: p.total,
      done: p.done,
      failed: p.failed,
      results: p.results.map((r) => ({ hardwareId: r.hardwareId, state: r.state, code: r.code })),
    };
  },
  openStoreList: async (ctx, body) => {
    const { rows, count } = await stores.list(ctx, { page: body.page, limit: body.limit });
    return { rows: rows.map(presentOpenStore), count };
  },
  openCallbackGet: (ctx) => callbacks.getSettings(ctx),
  openCallbackSet: (ctx, body) => callbacks.setSettings(ctx, body),
  openCallbackResend: (ctx) => callbacks.resendFailed(ctx),
};
