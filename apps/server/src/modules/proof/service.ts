import { type ParsedBodyOf, PRICE_WRONG_MINUTES_DEFAULT, type ProofSummary } from '@esl/contract';
import type { Kysely } from 'kysely';
import type { CallContext } from '../../api/context';
import { transact } from '../../infra/db/retry';
import type { Database } from '../../infra/db/schema';
import { formatCents } from '../../infra/lib/price';
import { enqueueEvent, type PriceWrongData } from '../../outbox/results/repository';
import { currentStore } from '../stores/service';
import { presentProof } from './presenter';
import * as repo from './repository';

export { localTime } from './export';

/*
 * Proof of price (docs/PROOF.md): the price-accuracy report of the current store, its summary,
 * and the watch that tells a tenant's callback about tags wrong for longer than its time.
 */

export async function list(ctx: CallContext, f: ParsedBodyOf<'proofList'>) {
  const at = await currentStore(ctx);
  const { rows, count } = await repo.listProof(ctx.services.db, at, f);
  return { rows: rows.map(presentProof), count };
}

export async function summary(ctx: CallContext): Promise<ProofSummary> {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  const counts = await repo.countProof(db, at);
  return {
    total: counts.agree + counts.disagree + counts.unknown,
    ...counts,
    alertMinutes: await repo.alertMinutes(db, at.tenantId, PRICE_WRONG_MINUTES_DEFAULT),
  };
}

/** Tags the watch looks at per transaction. */
const WATCH_BATCH = 500;

/**
 * One look of the watch (run by the delivery sweeper): every tag whose screen has disagreed with
 * its product's price for longer than its tenant's minutes, and that has not been reported for
 * this disagreement, gets one `price.wrong` event — the conditional mark makes it once across
 * processes. A tag found agreeing after all (a report showed the right picture and no result
 * came to say so) is cleared instead. Answers how many events it wrote.
 */
export async function watchPrices(db: Kysely<Database>, now: number): Promise<number> {
  let sent = 0;
  for (;;) {
    const rows = await repo.overdue(db, now, 60_000, WATCH_BATCH);
    if (rows.length === 0) return sent;
    await transact(db, async (trx) => {
      for (const r of rows) {
        const since = Number(r.price_wrong_since);
        if (r.state === 'agree') {
          await repo.clearWrong(trx, r.id, since);
          continue;
        }
        if (!(await repo.markAlerted(trx, r.id, since, now))) continue;
        const screen = r.screen_price_cents === null ? null : Number(r.screen_price_cents);
        const data: PriceWrongData = {
          storeId: r.store_id,
          tagId: r.id,
          hardwareId: r.hardware_id,
          productId: Number(r.product_id),
          barcode: r.barcode,
          productName: r.name,
          price: formatCents(Number(r.price_cents)),
          screenPrice: screen === null ? null : formatCents(screen),
          wrongSince: since,
          minutes: Number(r.price_wrong_min),
        };
        await enqueueEvent(trx, {
          tenantId: r.tenant_id,
          storeId: r.store_id,
          type: 'price.wrong',
          orderKey: `tag:${r.id}`,
          data,
          now,
        });
        sent++;
      }
    });
    if (rows.length < WATCH_BATCH) return sent;
  }
}
