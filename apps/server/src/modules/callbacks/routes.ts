import type { CallbackDelivery, CallbackState, CallbackType } from '@esl/contract';
import { ErrorCode } from '@esl/contract';
import { requireTenant } from '../../api/context';
import { AppError } from '../../api/errors';
import { defineHandlers } from '../../api/handlers';
import * as outbox from './repository';
import * as service from './service';

type Row = Awaited<ReturnType<typeof outbox.recent>>['rows'][number];

function present(r: Row): CallbackDelivery {
  let data: { hardwareId?: unknown; requestId?: unknown } = {};
  try {
    data = (JSON.parse(r.payload) as { data?: typeof data }).data ?? {};
  } catch {
    // A payload is always JSON written by outbox.ts; an unreadable one names nothing.
  }
  return {
    hardwareId: typeof data.hardwareId === 'string' ? data.hardwareId : null,
    requestId: typeof data.requestId === 'number' ? data.requestId : null,
    id: r.id,
    eventId: r.event_id,
    type: r.type as CallbackType,
    storeId: r.store_id,
    subject: r.order_key,
    state: r.state as CallbackState,
    attempts: Number(r.attempts),
    nextAt: Number(r.next_at),
    createdAt: Number(r.created_at),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
    lastStatus: r.last_status,
    lastError: r.last_error,
    excerpt: r.excerpt,
  };
}

/**
 * The tenant's callbacks: its URL (checked against SSRF as it is saved), recent deliveries, a
 * test event, and the given-up events sent again.
 */
export const callbackHandlers = defineHandlers({
  callbackInfo: (ctx) => service.getSettings(ctx),
  setCallback: (ctx, body) => service.setSettings(ctx, body),
  callbackLog: async (ctx, { page, limit, state }) => {
    const { tenantId } = requireTenant(ctx);
    const { rows, count } = await outbox.recent(ctx.services.db, tenantId, (page - 1) * limit, limit, state);
    return { rows: rows.map(present), count };
  },
  testCallback: async (ctx) => {
    const { tenantId } = requireTenant(ctx);
    const eventId = await outbox.enqueueTest(ctx.services.db, tenantId, ctx.services.config.now());
    if (!eventId) throw new AppError(ErrorCode.VALIDATION, { field: 'url', detail: 'callbackNone' });
    return { eventId };
  },
  resendCallbacks: (ctx) => service.resendFailed(ctx),
});
