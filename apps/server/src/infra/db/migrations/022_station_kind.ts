import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

/**
 * A base station's kind (issue 24): `station` speaks the protocol itself (docs/PROTOCOL.md);
 * `oepl` is an OpenEPaperLink access point at `ap_url` (`http://HOST[:PORT]`), driven by a
 * bridge the server runs in its own process (docs/OEPL.md). Existing rows are `station`.
 */
export function stationKind(_dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('stations')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('station'))
        .execute();
      await db.schema
        .alterTable('stations')
        .addColumn('ap_url', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const name of ['ap_url', 'kind']) {
        await db.schema.alterTable('stations').dropColumn(name).execute();
      }
    },
  };
}
