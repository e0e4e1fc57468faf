import type { ParsedBodyOf } from '@esl/contract';
import type { Insertable, Kysely } from 'kysely';
import type { CallContext } from '../../api/context';
import { conflict, notFound } from '../../api/errors';
import type { Database, DeviceRequestTable } from '../../db/schema';
import { onUniqueViolation } from '../../db/unique';
import { randomHex, sha256Hex } from '../../lib/random';
import { currentStore } from '../stores/service';
import * as repo from './repository';

export async function list(ctx: CallContext, f: repo.StationFilter) {
  const at = await currentStore(ctx);
  return repo.listStations(ctx.services.db, at, f);
}

/** The runtime figures of a station that has not reported yet. */
const NOT_REPORTED = {
  cpu: null,
  memory: null,
  disk: null,
  ip: '',
  mac: '',
  wifi_password: '',
  ntp_server: '',
  gateway: '',
  mask: '',
  server_address: '',
  server_port: null,
  upgrade_url: '',
  firmware: '',
  last_heartbeat: null,
  online: 0,
};

/**
 * Adds a base station to the current store and issues its MQTT secret. Only a hash is kept, so
 * the secret in this answer is the only copy; the station is configured with it.
 */
export async function add(ctx: CallContext, fields: ParsedBodyOf<'addStation'>) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  ctx.target = `base station ${fields.sn}`;
  // Held here or by another tenant: the same answer, which never names the holder.
  if (await repo.snTaken(db, fields.sn)) throw conflict(fields.sn);
  const secret = randomHex(24);
  const row = await onUniqueViolation(
    repo.insertStation(db, {
      ...fields,
      tenant_id: at.tenantId,
      store_id: at.storeId,
      secret_hash: sha256Hex(secret),
      ...NOT_REPORTED,
      created_at: ctx.now,
    }),
    () => conflict(fields.sn),
  );
  return { row, secret };
}

/** All or nothing: an id that is not a base station of the current store refuses the whole call. */
export async function remove(ctx: CallContext, ids: readonly number[]) {
  const at = await currentStore(ctx);
  const unique = [...new Set(ids)];
  ctx.target = `base stations #${unique.join(',')}`;
  return ctx.services.db.transaction().execute(async (trx) => {
    const mine = await repo.stationIdsIn(trx, at, unique);
    if (mine.size !== unique.length) throw notFound();
    return repo.deleteStations(trx, at, unique);
  });
}

/** Records the request; a later delivery layer sends it to the station. */
export async function openCommandWindow(ctx: CallContext, id: number) {
  const at = await currentStore(ctx);
  ctx.target = `base station #${id}`;
  const station = await repo.findStation(ctx.services.db, at, id);
  if (!station) throw notFound();
  ctx.target = `base station ${station.sn}`;
  await repo.insertDeviceRequests(ctx.services.db, [
    {
      tenant_id: at.tenantId,
      store_id: at.storeId,
      kind: 'station.cmdwindow',
      tag_id: null,
      station_id: id,
      status: 'recorded',
      user_id: at.userId,
      created_at: ctx.now,
    },
  ]);
  return { id, delivered: false };
}

/** Records requests for the delivery layer (from here, and from the tags module's refresh and roll call). */
export function recordRequests(db: Kysely<Database>, rows: Insertable<DeviceRequestTable>[]): Promise<void> {
  return repo.insertDeviceRequests(db, rows);
}
