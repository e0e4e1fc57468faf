import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * Where a tag is (issue 29 item 5, docs/SHELF.md): on `tags`, its place on the shop floor —
 * `aisle`, `bay`, `shelf` (free text as the store names them, e.g. `A3`, `12`, `top`) and
 * `position` (the order along the shelf, left to right, from 1); all null while not placed. One
 * index per store in wall order: the wall reads a store's tags by it. And `nfc_value` (issue 29
 * item 7): the NFC content last queued for the tag, as JSON `{type, value}` (null: none yet); a
 * render whose template's NFC field gives another value queues an `nfc` slot and sets it.
 */
export function shelfNfc(_dialect: Dialect) {
  const columns: Array<[string, 'text' | 'integer']> = [
    ['aisle', 'text'],
    ['bay', 'text'],
    ['shelf', 'text'],
    ['position', 'integer'],
    ['nfc_value', 'text'],
  ];
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const [name, type] of columns) await db.schema.alterTable('tags').addColumn(name, type).execute();
      await db.schema
        .createIndex('tags_shelf')
        .on('tags')
        .columns(['tenant_id', 'store_id', 'aisle', 'bay', 'shelf', 'position'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('tags_shelf').ifExists().execute();
      for (const [name] of [...columns].reverse()) await db.schema.alterTable('tags').dropColumn(name).execute();
    },
  };
}
