import { type Expression, type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database } from '../../infra/db/schema';

/*
 * SQL of proof of price (docs/PROOF.md): what a tag's screen was rendered from (expressions the
 * render stage and the results of the task engine write with too), a store's bound tags with
 * that beside their product's price now, and the disagreements the watch reports.
 */

// ---------------------------------------------------------------------------------------------
// The screen

/*
 * What a tag's screen was rendered from, in SQL over a `tags` row (docs/PROOF.md): the price and
 * product of the picture the tag last said it shows (`shown_ver`). The render stage stores them
 * with the desired image (`desired_*`), a confirmation copies them to the confirmed one
 * (`shown_*`); the screen is whichever of the two the reported version is — the desired one first,
 * the newest render of that picture — and unknown (null) when it is neither. The same expressions
 * serve the report, the watch, and the writes that keep `price_wrong_since`.
 */

/** The columns of the row the expressions read; each may be replaced by a value being written. */
interface ScreenColumns {
  ver: Expression<string | null>;
  desiredHash: Expression<string | null>;
  desiredPrice: Expression<number | null>;
  desiredProduct: Expression<number | null>;
  desiredAt: Expression<number | null>;
  shownHash: Expression<string | null>;
  shownPrice: Expression<number | null>;
  shownProduct: Expression<number | null>;
  shownAt: Expression<number | null>;
}

/**
 * `desired_product_id` / `shown_product_id` of a label drawn from no product (the store's label for
 * an unbound tag): known, and never the product's. Null there means not known (drawn before
 * migration 028). No product row has id 0.
 */
export const NO_PRODUCT = 0;

export const bigint = (v: number | null) => sql<number | null>`cast(${v} as bigint)`;
export const integer = (v: number | null) => sql<number | null>`cast(${v} as integer)`;
export const text = (v: string | null) => sql<string | null>`cast(${v} as text)`;

/** A column of the tags row: `alias.name`, or `name` alone in an UPDATE of `tags`. */
export function column<T>(alias: string, name: string): RawBuilder<T> {
  return sql<T>`${sql.ref(alias ? `${alias}.${name}` : name)}`;
}

function screenColumns(alias: string, replaced: Partial<ScreenColumns> = {}): ScreenColumns {
  const c = <T>(name: string) => column<T>(alias, name);
  return {
    ver: c('shown_ver'),
    desiredHash: c('desired_hash'),
    desiredPrice: c('desired_price_cents'),
    desiredProduct: c('desired_product_id'),
    desiredAt: c('desired_at'),
    shownHash: c('shown_hash'),
    shownPrice: c('shown_price_cents'),
    shownProduct: c('shown_product_id'),
    shownAt: c('shown_priced_at'),
    ...replaced,
  };
}

function whichever<T>(c: ScreenColumns, desired: Expression<T>, shown: Expression<T>): RawBuilder<T | null> {
  return sql<T | null>`(case when ${c.ver} = substr(${c.desiredHash}, 1, 16) then ${desired}
    when ${c.ver} = substr(${c.shownHash}, 1, 16) then ${shown} end)`;
}

/** The screen of the tags row `alias`, with columns replaced by values about to be written. */
export function screenOf(alias: string, replaced?: Partial<ScreenColumns>) {
  const c = screenColumns(alias, replaced);
  return {
    /** The price (cents) the screen was rendered from; null: not known. */
    priceCents: whichever(c, c.desiredPrice, c.shownPrice),
    /** The product it was rendered from (NO_PRODUCT: none, the unbound label); null: not known. */
    productId: whichever(c, c.desiredProduct, c.shownProduct),
    /** When it was rendered. */
    renderedAt: whichever(c, c.desiredAt, c.shownAt),
  };
}

/** True when the screen was rendered from this product at this price (null counts as false). */
export function agrees(
  screen: ReturnType<typeof screenOf>,
  productId: Expression<number | null>,
  priceCents: Expression<number | null>,
): RawBuilder<boolean> {
  return sql<boolean>`(${screen.productId} = ${productId} and ${screen.priceCents} = ${priceCents})`;
}

/**
 * What a write sets of the disagreement of the `tags` row it updates, given whether its screen
 * (after the write) agrees with the product's price now: agreeing, or no product, clears it (and
 * the callback sent for it); otherwise it is wrong since the time it already had, or `from`.
 */
export function wrongSince(agreement: Expression<boolean>, from: number) {
  const settled = sql<boolean>`(product_id is null or coalesce(${agreement}, false))`;
  return {
    price_wrong_since: sql<
      number | null
    >`case when ${settled} then null else coalesce(price_wrong_since, ${bigint(from)}) end`,
    price_alerted_at: sql<number | null>`case when ${settled} then null else price_alerted_at end`,
  };
}

// ---------------------------------------------------------------------------------------------
// The report and the watch

type Db = Kysely<Database> | Transaction<Database>;

export type ProofState = 'agree' | 'disagree' | 'unknown';

const screen = screenOf('t');
/** What the till charges now: the running promotion's price, else the product's (docs/PROMOTIONS.md). */
export const PRICE_NOW = sql<number>`coalesce(p.promo_price_cents, p.price_cents)`;
const agreement = agrees(screen, sql.ref('t.product_id'), PRICE_NOW);
/** Agree: rendered from this product at its price now; unknown: what the screen was rendered from is not known. */
const stateOf = sql<ProofState>`case when ${screen.productId} is null then 'unknown'
  when coalesce(${agreement}, false) then 'agree' else 'disagree' end`;
/** Disagreeing first, then unknown, then agreeing. */
const rankOf = sql<number>`case when ${screen.productId} is null then 1 when coalesce(${agreement}, false) then 2 else 0 end`;

export interface ProofFilter {
  /** Only the tags whose screen is not proven to agree (disagreeing and unknown). */
  wrongOnly?: boolean;
}

function bound(db: Db, at: { tenantId: number; storeId: number }, f: ProofFilter) {
  let q = db
    .selectFrom('tags as t')
    .innerJoin('products as p', 'p.id', 't.product_id')
    .where('t.tenant_id', '=', at.tenantId)
    .where('t.store_id', '=', at.storeId);
  if (f.wrongOnly) q = q.where(sql<boolean>`not coalesce(${agreement}, false)`);
  return q;
}

const columns = (q: ReturnType<typeof bound>) =>
  q.select([
    't.id',
    't.hardware_id',
    't.product_id',
    'p.barcode',
    'p.name',
    PRICE_NOW.as('price_cents'),
    't.shown_at',
    't.last_seen',
    't.price_wrong_since',
    't.shown_ver',
    't.desired_hash',
    screen.priceCents.as('screen_price_cents'),
    screen.productId.as('screen_product_id'),
    screen.renderedAt.as('screen_rendered_at'),
    stateOf.as('state'),
  ]);

export type ProofRow = Awaited<ReturnType<ReturnType<typeof columns>['execute']>>[number];

/** A page of a store's bound tags: disagreeing first (longest wrong first), then unknown, then agreeing. */
export async function listProof(
  db: Db,
  at: { tenantId: number; storeId: number },
  f: ProofFilter & { page: number; limit: number },
) {
  const q = bound(db, at, f);
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await columns(q)
    .orderBy(rankOf)
    .orderBy(sql`coalesce(t.price_wrong_since, 0)`)
    .orderBy('t.hardware_id')
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
    .execute();
  return { rows, count: Number(n) };
}

/** Rows of the export after `after` (by hardware id), a page at a time. */
export function exportProofPage(
  db: Db,
  at: { tenantId: number; storeId: number },
  f: ProofFilter,
  after: string | null,
  limit: number,
) {
  let q = bound(db, at, f);
  if (after !== null) q = q.where('t.hardware_id', '>', after);
  return columns(q).orderBy('t.hardware_id').limit(limit).execute();
}

/** How many of a store's bound tags agree, disagree, are unknown. */
export async function countProof(db: Db, at: { tenantId: number; storeId: number }) {
  const rows = await bound(db, at, {})
    .select([stateOf.as('state'), (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(stateOf)
    .execute();
  const out: Record<ProofState, number> = { agree: 0, disagree: 0, unknown: 0 };
  for (const r of rows) out[r.state] = Number(r.n);
  return out;
}

/** After how many minutes of a wrong price a tenant's `price.wrong` callback goes out (the default without settings). */
export async function alertMinutes(db: Db, tenantId: number, fallback: number): Promise<number> {
  const row = await db
    .selectFrom('callback_settings')
    .select('price_wrong_min')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row ? Number(row.price_wrong_min) : fallback;
}

/**
 * Tags wrong for longer than their tenant's time and not reported yet, of tenants with a callback
 * URL, oldest first. `floor`: no tenant's time is shorter, so the index on `price_wrong_since`
 * narrows the look before the join.
 */
export function overdue(db: Db, now: number, floor: number, limit: number) {
  return db
    .selectFrom('tags as t')
    .innerJoin('callback_settings as c', 'c.tenant_id', 't.tenant_id')
    .innerJoin('products as p', 'p.id', 't.product_id')
    .where('t.price_wrong_since', '<=', now - floor)
    .where('t.price_alerted_at', 'is', null)
    .where('c.url', '<>', '')
    .where(sql<boolean>`t.price_wrong_since <= ${bigint(now)} - c.price_wrong_min * 60000`)
    .select([
      't.id',
      't.tenant_id',
      't.store_id',
      't.hardware_id',
      't.product_id',
      't.price_wrong_since',
      'p.barcode',
      'p.name',
      PRICE_NOW.as('price_cents'),
      'c.price_wrong_min',
      screen.priceCents.as('screen_price_cents'),
      stateOf.as('state'),
    ])
    .orderBy('t.price_wrong_since')
    .limit(limit)
    .execute();
}

/** The callback for this disagreement goes out now: false when another process sent it, or it ended. */
export async function markAlerted(db: Db, tagId: number, since: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('tags')
    .set({ price_alerted_at: now })
    .where('id', '=', tagId)
    .where('price_alerted_at', 'is', null)
    .where('price_wrong_since', '=', since)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A tag the watch found agreeing after all (its report showed the right picture): no longer wrong. */
export async function clearWrong(db: Db, tagId: number, since: number): Promise<void> {
  await db
    .updateTable('tags')
    .set({ price_wrong_since: null, price_alerted_at: null })
    .where('id', '=', tagId)
    .where('price_wrong_since', '=', since)
    .execute();
}
