import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Proof of price (issue 29 item 6, docs/PROOF.md): the price a label was rendered from travels
 * with the tag's images. `desired_price_cents` / `desired_product_id` are what the desired image
 * (`desired_hash`, rendered at `desired_at`) was drawn from (product 0: none, the unbound label);
 * `shown_*` the same of the image the tag last confirmed (`shown_hash`, confirmed at `shown_at`),
 * with when that image was rendered (`shown_priced_at`). `price_wrong_since` is when the tag's
 * screen stopped agreeing with its product's price (null: it agrees, or has no product);
 * `price_alerted_at` when the `price.wrong` callback went out for it (once per disagreement).
 * `callback_settings.price_wrong_min`: after how many minutes of a wrong price that callback goes out.
 */
export function priceProof(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  const tagColumns: Array<[string, string]> = [
    ['desired_price_cents', big],
    ['desired_product_id', 'integer'],
    ['shown_price_cents', big],
    ['shown_product_id', 'integer'],
    ['shown_priced_at', big],
    ['price_wrong_since', big],
    ['price_alerted_at', big],
  ];
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const [name, type] of tagColumns) {
        await db.schema
          .alterTable('tags')
          .addColumn(name, type as 'integer')
          .execute();
      }
      // The watch looks at tags wrong since before a time; almost every tag has none.
      await db.schema.createIndex('tags_price_wrong').on('tags').column('price_wrong_since').execute();
      await db.schema
        .alterTable('callback_settings')
        .addColumn('price_wrong_min', 'integer', (c) => c.notNull().defaultTo(15))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('callback_settings').dropColumn('price_wrong_min').execute();
      await db.schema.dropIndex('tags_price_wrong').ifExists().execute();
      for (const [name] of [...tagColumns].reverse()) await db.schema.alterTable('tags').dropColumn(name).execute();
    },
  };
}
