import { createHash } from 'node:crypto';
import type { Random } from './random';
import { madeUpTags } from './simulator';
import type { StationSpec } from './station';
import type { TagSpec } from './tag';

/*
 * `npm run sim -- --api URL …`: the simulator gets its stations and tags through the server's
 * public API, as a user of the console would — sign in, pick (or add) the store, add base
 * stations (each answers its MQTT secret once) and tags — or, with `attach`, takes the store's
 * existing stations (issuing each a new secret, as an operator re-provisioning a station does)
 * and the tags already registered there.
 */

export interface ProvisionOptions {
  /** The server's address, e.g. http://127.0.0.1:8080 (calls go to {api}/api/…). */
  api: string;
  username: string;
  password: string;
  /** Store name; added (with a code made from it) when the tenant has none of that name. */
  store: string;
  /** Stations to add; ignored with `attach`. */
  stations: number;
  /** Tags to add per added station. */
  tagsPerStation: number;
  models: ReadonlyArray<readonly [string, number]>;
  wakeS: number;
  /** Serial numbers of added stations: `{prefix}-01`, `{prefix}-02`, … after the store's highest. */
  snPrefix: string;
  /** Use the store's stations and tags instead of adding any. */
  attach: boolean;
  rng: Random;
  log?: (line: string) => void;
}

export interface Provisioned {
  tenantId: number;
  storeId: number;
  stations: StationSpec[];
}

interface Answer<T> {
  code: number;
  msg: string;
  data: T;
  count?: number;
}

/** A call failed: the server's own code and message, and which call. */
export class ApiError extends Error {
  constructor(
    readonly path: string,
    readonly code: number,
    message: string,
  ) {
    super(`${path}: ${message} (code ${code})`);
  }
}

type Fetch = typeof fetch;

/** One client of the server's API with a session token. */
class Client {
  private token: string | null = null;

  constructor(
    private readonly base: string,
    private readonly fetchImpl: Fetch,
  ) {}

  async call<T>(path: string, body: unknown = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'accept-language': 'en' };
    if (this.token) headers.token = this.token;
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.base}/api${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    } catch (err) {
      throw new Error(`cannot reach ${this.base}: ${(err as Error).message}`);
    }
    const answer = (await res.json().catch(() => null)) as Answer<T> | null;
    if (!answer || typeof answer.code !== 'number')
      throw new ApiError(path, -1, `not an API answer (HTTP ${res.status})`);
    if (answer.code !== 0) throw new ApiError(path, answer.code, answer.msg);
    return answer;
  }

  async login(username: string, password: string): Promise<void> {
    // The console sends the SHA-256 of the password, never the password itself.
    const digest = createHash('sha256').update(password).digest('hex');
    const answer = await this.call<{ token: string }>('/user/login', { username, password: digest });
    this.token = answer.data.token;
  }

  /** Every row of a list call, page by page. */
  async all<T>(path: string, body: Record<string, unknown> = {}): Promise<T[]> {
    const rows: T[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.call<T[]>(path, { ...body, page, limit: 500 });
      rows.push(...answer.data);
      if (answer.data.length < 500 || rows.length >= (answer.count ?? 0)) return rows;
    }
  }
}

interface StoreRow {
  id: number;
  name: string;
  code: string;
}
interface StationRow {
  id: number;
  sn: string;
}
interface TagRow {
  hardwareId: string;
  model: string;
  stationSn: string | null;
}

/** A store code from a name: ASCII letters and digits kept, the rest dropped; never empty. */
export function storeCode(name: string, rng: Random): string {
  const ascii = name.replace(/[^A-Za-z0-9_-]+/g, '').slice(0, 20);
  return `${ascii || 'SIM'}-${rng.hex(4)}`;
}

/** The next free serial numbers `{prefix}-NN` given the ones the tenant's store already has. */
export function nextSerials(prefix: string, existing: readonly string[], n: number): string[] {
  const p = prefix.toUpperCase();
  let highest = 0;
  for (const sn of existing) {
    const m = new RegExp(`^${p.replace(/[^A-Z0-9]/g, (c) => `\\${c}`)}-(\\d+)$`).exec(sn.toUpperCase());
    if (m) highest = Math.max(highest, Number(m[1]));
  }
  return Array.from({ length: n }, (_, i) => `${p}-${String(highest + i + 1).padStart(2, '0')}`);
}

/** Signs in, finds or adds the store, and answers the stations (with secrets and tags) to simulate. */
export async function provision(o: ProvisionOptions, fetchImpl: Fetch = fetch): Promise<Provisioned> {
  const log = o.log ?? (() => {});
  const client = new Client(o.api.replace(/\/+$/, ''), fetchImpl);
  await client.login(o.username, o.password);
  const info = await client.call<{ tenant: { id: number } | null }>('/user/info');
  if (!info.data.tenant) throw new Error(`${o.username} belongs to no tenant: sign in as a tenant's user`);
  const tenantId = info.data.tenant.id;

  const stores = await client.all<StoreRow>('/mgr/station/list', { name: o.store });
  let store = stores.find((s) => s.name === o.store);
  if (!store) {
    if (o.attach) throw new Error(`no store named "${o.store}" to attach to`);
    store = (await client.call<StoreRow>('/mgr/station/add', { name: o.store, code: storeCode(o.store, o.rng) })).data;
    log(`added store "${store.name}" (${store.code})`);
  }
  await client.call('/user/setcurrshop', { curshop: store.id });

  const existing = await client.all<StationRow>('/mgr/ap/runtimelist');
  const specs: StationSpec[] = [];
  if (o.attach) {
    if (existing.length === 0) throw new Error(`store "${o.store}" has no base stations to attach to`);
    const tags = await client.all<TagRow>('/mgr/tag/list');
    const bySn = new Map<string, TagSpec[]>(existing.map((s) => [s.sn, []]));
    // A tag goes to the station that heard it last; the others are dealt out in turn.
    let next = 0;
    for (const t of tags) {
      const own = t.stationSn !== null ? bySn.get(t.stationSn) : undefined;
      const list = own ?? (bySn.get(existing[next++ % existing.length].sn) as TagSpec[]);
      list.push({ id: t.hardwareId, hw: t.model, wakeS: o.wakeS });
    }
    for (const s of existing) {
      const renewed = await client.call<{ secret: string }>('/mgr/ap/renewsecret', { id: s.id });
      specs.push({ tenantId, sn: s.sn, secret: renewed.data.secret, tags: bySn.get(s.sn) });
    }
    log(`attached to ${existing.length} station(s) and ${tags.length} tag(s) of "${o.store}"`);
  } else {
    for (const sn of nextSerials(
      o.snPrefix,
      existing.map((s) => s.sn),
      o.stations,
    )) {
      const added = await client.call<{ sn: string; secret: string }>('/mgr/ap/add', { sn, name: `Simulated ${sn}` });
      const tags = madeUpTags(o.rng.fork(sn), o.tagsPerStation, o.models, o.wakeS);
      const byModel = new Map<string, string[]>();
      for (const t of tags) byModel.set(t.hw, [...(byModel.get(t.hw) ?? []), t.id]);
      for (const [model, ids] of byModel) {
        for (let i = 0; i < ids.length; i += 2000) {
          await client.call('/mgr/tag/add', { model, hardwareIds: ids.slice(i, i + 2000) });
        }
      }
      specs.push({ tenantId, sn: added.data.sn, secret: added.data.secret, tags });
    }
    log(`added ${specs.length} station(s) with ${o.tagsPerStation} tag(s) each to "${o.store}"`);
  }
  return { tenantId, storeId: store.id, stations: specs };
}
