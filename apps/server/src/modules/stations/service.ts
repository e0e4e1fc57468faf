import { isAllowedCommand, type ParsedBodyOf } from '@esl/contract';
import { STATION_COMMANDS } from '@esl/contract/protocol';
import type { Insertable, Kysely } from 'kysely';
import { type CallContext, publicBase, requireCaller } from '../../api/context';
import { conflict, invalidField, notFound } from '../../api/errors';
import type { Database, DeviceRequestTable } from '../../infra/db/schema';
import { onUniqueViolation } from '../../infra/db/unique';
import { randomHex, sha256Hex } from '../../infra/lib/random';
import { type CurrentStore, currentStore } from '../stores/service';
import { apAddressRefused, testAccessPoint } from './ap-check';
import { stationLogin } from './login';
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
 * the secret in this answer is the only copy; the station is configured with it. An OpenEPaperLink
 * station (`kind` oepl) answers no secret: the server runs its bridge and issues the bridge a
 * secret of its own at each start (delivery/bridges/, docs/OEPL.md "The bridge in the server").
 */
export async function add(ctx: CallContext, fields: ParsedBodyOf<'addStation'>) {
  const at = await currentStore(ctx);
  const { db } = ctx.services;
  ctx.target = { kind: 'station', name: fields.sn };
  // Held here or by another tenant: the same answer, which never names the holder.
  if (await repo.snTaken(db, fields.sn)) throw conflict(fields.sn);
  const oepl = fields.kind === 'oepl';
  if (oepl && (await apAddressRefused(fields.apUrl))) throw invalidField('apUrl', 'apAddress');
  const secret = randomHex(24);
  const row = await onUniqueViolation(
    repo.insertStation(db, {
      sn: fields.sn,
      name: fields.name,
      module: fields.module,
      kind: fields.kind,
      ap_url: oepl ? fields.apUrl : '',
      tenant_id: at.tenantId,
      store_id: at.storeId,
      secret_hash: sha256Hex(secret),
      secret_at: ctx.now,
      ...NOT_REPORTED,
      created_at: ctx.now,
    }),
    () => conflict(fields.sn),
  );
  if (oepl) {
    // Nobody is told this secret (its hash only locks the account until the bridge gets its own).
    ctx.services.stationBridges.changed();
    return { row, secret: '' };
  }
  await ctx.services.stationAccounts.secretIssued({ tenantId: at.tenantId, sn: row.sn }, secret);
  return { row, secret };
}

/** How a station of the caller's tenant logs in, as the server sees its broker (login.ts). */
export function loginOf(ctx: CallContext, tenantId: number, sn: string) {
  return stationLogin(ctx.services.stationBroker, new URL(publicBase(ctx)).hostname, { tenantId, sn });
}

/** Renames a station; for an OEPL station also changes its AP's address (its bridge restarts). */
export async function edit(ctx: CallContext, body: ParsedBodyOf<'editStation'>) {
  const at = await currentStore(ctx);
  const station = await stationOf(ctx, at, body.id);
  const { db } = ctx.services;
  if (body.apUrl !== undefined && body.apUrl !== station.ap_url) {
    if (station.kind !== 'oepl') throw invalidField('apUrl', 'stationKind');
    if (await apAddressRefused(body.apUrl)) throw invalidField('apUrl', 'apAddress');
  }
  await repo.updateStation(db, at, body.id, {
    name: body.name,
    ap_url: station.kind === 'oepl' ? body.apUrl : undefined,
  });
  if (station.kind === 'oepl') ctx.services.stationBridges.changed();
  const row = await repo.findStation(db, at, body.id);
  if (!row) throw notFound();
  return row;
}

/**
 * Test connection: the server reads the AP's /sysinfo (3 s, one fixed path, no redirects; the SSRF
 * rules are in ap-check.ts). Needs a current store like every station call, so it is checked and
 * scoped exactly as an edit.
 */
export async function testAp(ctx: CallContext, apUrl: string) {
  await currentStore(ctx);
  return testAccessPoint(apUrl);
}

/**
 * Issues a new MQTT secret (shown once, only its hash kept). The old one stops working at once:
 * the broker reads the hash at every login, and a session made with the old secret is closed.
 */
export async function renewSecret(ctx: CallContext, id: number) {
  const at = await currentStore(ctx);
  ctx.target = { kind: 'station', name: `#${id}` };
  const { db } = ctx.services;
  const station = await repo.findStation(db, at, id);
  if (!station) throw notFound();
  ctx.target = { kind: 'station', name: station.sn };
  // The server holds an OEPL station's secret (a new one at each start of its bridge).
  if (station.kind === 'oepl') throw invalidField('id', 'stationKind');
  const secret = randomHex(24);
  await repo.setSecretHash(db, at, id, sha256Hex(secret), ctx.now);
  await ctx.services.stationAccounts.secretIssued({ tenantId: at.tenantId, sn: station.sn }, secret);
  return { id, sn: station.sn, secret, login: loginOf(ctx, at.tenantId, station.sn) };
}

/** All or nothing: an id that is not a base station of the current store refuses the whole call. */
export async function remove(ctx: CallContext, ids: readonly number[]) {
  const at = await currentStore(ctx);
  const unique = [...new Set(ids)];
  ctx.target = { kind: 'stations', names: unique.map((id) => `#${id}`), count: unique.length };
  const { deleted, serials } = await ctx.services.db.transaction().execute(async (trx) => {
    const mine = await repo.stationIdsIn(trx, at, unique);
    if (mine.size !== unique.length) throw notFound();
    const serials = await repo.serialsOf(trx, at, unique);
    ctx.target = { kind: 'stations', names: serials, count: unique.length };
    return { deleted: await repo.deleteStations(trx, at, unique), serials };
  });
  for (const sn of serials) await ctx.services.stationAccounts.removed({ tenantId: at.tenantId, sn });
  ctx.services.stationBridges.changed();
  return deleted;
}

/**
 * Opens a command window on an online station. The window belongs to the caller's console
 * session: the station's output comes back as `station.cmd` notices to that session only.
 */
export async function openCommandWindow(ctx: CallContext, id: number) {
  const at = await currentStore(ctx);
  const caller = requireCaller(ctx);
  const station = await stationOf(ctx, at, id);
  if (!Number(station.online)) throw invalidField('id', 'stationOffline');
  const opened = await ctx.services.stationLink.openCmd(id, caller.sessionId);
  if (!opened) throw invalidField('id', 'stationOffline');
  return { id, sn: station.sn, ...opened, commands: [...STATION_COMMAND_LINES] };
}

/** One line of the allow-list (others are refused), each logged with the line itself. */
export async function runCommand(ctx: CallContext, body: ParsedBodyOf<'stationCmd'>) {
  const at = await currentStore(ctx);
  const caller = requireCaller(ctx);
  const station = await stationOf(ctx, at, body.id);
  ctx.target = { kind: 'stationCmd', name: station.sn, extra: body.line ?? 'close' };
  if (body.line !== undefined && !isAllowedCommand(body.line)) throw invalidField('line', 'command');
  const sent = await ctx.services.stationLink.cmd(body.id, caller.sessionId, body.session, {
    line: body.line,
    close: body.close,
  });
  if (!sent) throw invalidField('session', 'cmdSession');
  return sent;
}

/**
 * Stores the desired configuration with the next revision and sends it when the station is
 * online (else its next hello fetches it). An unchanged configuration keeps its revision.
 */
export async function setConfig(ctx: CallContext, { id, config }: ParsedBodyOf<'setStationConfig'>) {
  const at = await currentStore(ctx);
  const station = await stationOf(ctx, at, id);
  const { wifiPassword, ...fields } = config;
  const json = JSON.stringify(fields);
  const samePassword = wifiPassword === undefined || wifiPassword === station.wifi_password;
  let rev = Number(station.cfg_rev);
  if (json !== station.config || !samePassword || rev === 0) {
    rev += 1;
    await repo.setConfig(ctx.services.db, at, id, {
      config: json,
      rev,
      wifiPassword: samePassword ? undefined : wifiPassword,
      serverHost: fields.serverHost,
      serverPort: fields.serverPort,
      upgradeUrl: fields.upgradeUrl,
    });
  }
  const sent = await ctx.services.stationLink.configChanged(id);
  return { id, configRev: rev, sent };
}

/** The station of the current store, named in the operation log; NOT_FOUND otherwise. */
async function stationOf(ctx: CallContext, at: CurrentStore, id: number) {
  ctx.target = { kind: 'station', name: `#${id}` };
  const station = await repo.findStation(ctx.services.db, at, id);
  if (!station) throw notFound();
  ctx.target = { kind: 'station', name: station.sn };
  return station;
}

/** What the console offers in the command window (`log` is `log tail [n]`). */
const STATION_COMMAND_LINES = STATION_COMMANDS.map((c) => (c === 'log' ? 'log tail' : c));

/** Records requests for the delivery layer (from here, and from the tags module's refresh and roll call). */
export function recordRequests(db: Kysely<Database>, rows: Insertable<DeviceRequestTable>[]): Promise<void> {
  return repo.insertDeviceRequests(db, rows);
}

/** An OEPL station's bridge in this server process (delivery/bridges/): who it is and where its AP is. */
export interface BridgedStation {
  id: number;
  tenantId: number;
  sn: string;
  apUrl: string;
}

/** Every OEPL station with an AP address, of every tenant (the bridge manager runs one bridge each). */
export async function bridgedStations(db: Kysely<Database>): Promise<BridgedStation[]> {
  const rows = await repo.bridgedStations(db);
  return rows.map((r) => ({ id: r.id, tenantId: r.tenant_id, sn: r.sn, apUrl: r.ap_url }));
}

/**
 * Issues a fresh secret for an OEPL station's in-process bridge and stores only its hash: the
 * secret lives in this process's memory for as long as the bridge runs, is never written,
 * answered or logged, and the previous one stops working (its session is closed).
 */
export async function issueBridgeSecret(db: Kysely<Database>, id: number, now: number): Promise<string> {
  const secret = randomHex(24);
  await repo.setSecretHashById(db, id, sha256Hex(secret), now);
  return secret;
}
