import type { Language, OpTarget, Role } from '@esl/contract';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { SharedCache } from '../infra/cache/shared';
import type { Config } from '../infra/config';
import type { Dialect } from '../infra/db/database';
import type { Database } from '../infra/db/schema';
import type { Notices } from '../infra/notice/notices';
import type { RenderPool } from '../infra/render/types';
import { forbidden, sessionExpired } from './errors';
import type { StationAccounts } from './station-accounts';
import type { StationBridges } from './station-bridges';
import type { BrokerAddresses } from './station-broker';
import type { StationLink } from './station-control';

/** What every handler can reach: the database, the configuration, the notice hub. */
export interface Services {
  db: Kysely<Database>;
  dialect: Dialect;
  config: Config;
  notices: Notices;
  /** Rarely changing tenant data read on every request (cache/shared.ts). */
  cache: SharedCache;
  /** The station broker's accounts: told when a station's secret is issued or it is deleted. */
  stationAccounts: StationAccounts;
  /** The delivery layer's desired-config push and command window (nothing online without a broker). */
  stationLink: StationLink;
  /** The in-process bridges to OpenEPaperLink access points: told when such a station changes. */
  stationBridges: StationBridges;
  /** Where stations log in (shown with a new station secret); null: no station broker. */
  stationBroker: BrokerAddresses | null;
  /**
   * Draws template previews and thumbnails: the app's render pool (worker threads, so a
   * 4096 × 4096 preview does not hold other requests), or the calling thread when
   * `renderWorkers` is 0.
   */
  previews: Pick<RenderPool, 'preview'>;
}

/** The signed-in user behind a request, read from the session row. */
export interface Caller {
  sessionId: string;
  userId: number;
  username: string;
  name: string;
  introduction: string;
  avatarKey: string | null;
  /** The effective roles: every permission check and store scope follows these. */
  roles: Role[];
  /** Every role the user holds, whatever the session acts as. */
  heldRoles: Role[];
  /** The one role the session acts as (/user/changerole); null = all of `heldRoles`. */
  actingRole: Role | null;
  /** Null for platform operators. */
  tenantId: number | null;
  tenantName: string;
  tenantCompany: string;
  /** The session's current store; null when none is set. */
  storeId: number | null;
}

export interface TenantCaller extends Caller {
  tenantId: number;
}

export interface CallContext {
  services: Services;
  lang: Language;
  ip: string;
  request: FastifyRequest;
  caller: Caller | null;
  /** Time of the request (config.now), Unix ms. */
  now: number;
  /** What the call acted on, for the operation log (described to each reader in their language); handlers set it. */
  target: OpTarget | null;
}

export function requireCaller(ctx: CallContext): Caller {
  if (!ctx.caller) throw sessionExpired();
  return ctx.caller;
}

/** The caller as a member of a tenant; platform operators are refused. */
export function requireTenant(ctx: CallContext): TenantCaller {
  const caller = requireCaller(ctx);
  if (caller.tenantId === null) throw forbidden();
  return caller as TenantCaller;
}

export function isAdmin(caller: Caller): boolean {
  return caller.roles.includes('admin');
}

/** The public address of this server: PUBLIC_URL, else the request's own protocol and host. */
export function publicBase(ctx: CallContext): string {
  return ctx.services.config.publicUrl || `${ctx.request.protocol}://${ctx.request.host}`;
}
