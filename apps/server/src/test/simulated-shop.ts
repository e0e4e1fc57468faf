import type { AddStationData, Template } from '@esl/contract';
import type { TemplateDocumentInput } from '@esl/labels';
import { priceLabel } from '@esl/labels/testing';
import { type FlapSpec, type Simulator, startSimulator } from '@esl/simulator';
import type { Delivery } from '../delivery/wiring';
import { renderJobs } from '../infra/render';
import * as templates from '../modules/templates/service';
import { buildProduct, buildShop, buildTag } from './business';
import type { TestApp } from './harness';

/*
 * Test harness of the simulated-delivery tests: a store on the real server (embedded broker)
 * with its stations and tags simulated, one clock for both, and the steps that move that clock
 * while letting the server answer. The tags decode what they receive themselves, so a check of
 * a screen is a check of the pixels that arrived.
 */

/** The price label every simulated store shows: the product's name and its price in red. */
export const PRICE_DOC: TemplateDocumentInput = priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' });

export interface ShopTag {
  id: number;
  hw: string;
  productId: number;
  barcode: string;
  /** Serial of the simulated station that hears it. */
  sn: string;
}

export interface Shop {
  token: string;
  tenantId: number;
  storeId: number;
  sim: Simulator;
  delivery: Delivery;
  /** Tag `i` (in station order) shows product `Apple i` at 1.00 + i/100, unless it is unbound. */
  tags: ShopTag[];
  stations: Array<{ id: number; sn: string }>;
  templateId: number;
  /** Image jobs each tag's station received, by hardware id, superseded ones included. */
  jobs: Map<string, Array<{ id: string; rev: number }>>;
  /** Every other job its stations received (kind and tag), in order. */
  otherJobs: Array<{ kind: string; tag: string | null }>;
  /** Sessions of the shop's other users: one per role (the store's), and an admin in the tenant's other store. */
  tokens: Record<'admin' | 'editor' | 'manager' | 'clerk' | 'stock', string>;
  otherStoreAdmin: string;
}

export interface ShopOptions {
  /** Serial of the station; with several, `${sn}-1`, `${sn}-2`, … */
  sn: string;
  /** Tags per station. */
  tags: number;
  stations?: number;
  /** The first this many tags of each station show no product. */
  unbound?: number;
  /** Flapping of every station, or of each one (by index; null or missing: steady). */
  flap?: FlapSpec | null | ReadonlyArray<FlapSpec | null>;
  /** Jobs a station holds at most. */
  queueSize?: number;
}

/** A call that must succeed: its data, or an error naming the path, code and message. */
async function callAs<T>(app: TestApp, path: string, body: object, token: string): Promise<T> {
  const res = await app.call<T>(path, body, { token });
  if (res.code !== 0) throw new Error(`${path}: ${res.code} ${res.msg}`);
  return res.data;
}

/** The store of a simulated shop: its stations, a default price template for model 05, tags with products. */
async function seedShop(app: TestApp, o: ShopOptions) {
  const call = <T>(path: string, body: object, token: string) => callAs<T>(app, path, body, token);
  const world = await buildShop(app.app);
  const token = world.tokens.admin;
  const at = { tenantId: world.tenant.id, storeId: world.store.id };
  const count = o.stations ?? 1;
  const stations: Array<AddStationData & { sn: string }> = [];
  for (let k = 0; k < count; k++) {
    stations.push(await call<AddStationData>('/mgr/ap/add', { sn: count === 1 ? o.sn : `${o.sn}-${k + 1}` }, token));
  }
  const template = await call<Template>('/mgr/templ/addtemple', { name: `price ${o.sn}`, model: '05' }, token);
  await call('/mgr/templ/alerttempData', { id: template.id, doc: PRICE_DOC }, token);
  await call('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id }, token);
  const tags: ShopTag[] = [];
  for (const st of stations) {
    for (let i = 0; i < o.tags; i++) {
      const n = tags.length;
      const product = await buildProduct(app.app, at, { name: `Apple ${n}`, priceCents: 100 + n });
      const tag = await buildTag(app.app, at, { model: '05', productId: i < (o.unbound ?? 0) ? null : product.id });
      tags.push({ id: tag.id, hw: tag.hardware_id, productId: product.id, barcode: product.barcode, sn: st.sn });
    }
  }
  return { token, at, stations, template, tags, tokens: world.tokens, otherStoreAdmin: world.otherStoreAdmin };
}

/** The steps of a simulated-delivery test against the app `t()`; `stop()` ends the simulator. */
export function simulatedShops(t: () => TestApp) {
  let sim: Simulator | undefined;

  const call = <T>(path: string, body: object, token: string) => callAs<T>(t(), path, body, token);

  /** Lets the server handle everything the stations sent, and the engine finish its pump. */
  async function settle(d: Delivery) {
    for (let i = 0; i < 4; i++) {
      await d.gateway.idle();
      await d.tasks.idle();
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  /**
   * Moves the simulated time on in steps, letting the server answer between them; `tick`: and
   * running the delivery timer's work after each step, as production does every second.
   */
  async function advance(s: Shop, ms: number, step = 2000, tick = false) {
    for (let done = 0; done < ms; done += step) {
      t().clock.advance(Math.min(step, ms - done));
      await s.sim.clock.advance(Math.min(step, ms - done));
      if (tick) await s.delivery.tasks.tick();
      await settle(s.delivery);
    }
  }

  /**
   * Advances until `pred` holds (at most `maxMs` of simulated time), running the delivery timer's
   * work (deadlines, reconciler, dispatch) after each step; `each` runs after every settled step.
   */
  async function until(
    s: Shop,
    what: string,
    pred: () => boolean | Promise<boolean>,
    maxMs = 400_000,
    step = 2000,
    each?: () => Promise<void>,
  ) {
    for (let done = 0; done <= maxMs; done += step) {
      await settle(s.delivery);
      await each?.();
      if (await pred()) return;
      t().clock.advance(step);
      await s.sim.clock.advance(step);
      await s.delivery.tasks.tick();
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  /**
   * A store with `stations` stations, `tags` tags of model 05 heard by each, a default price
   * template, every tag routed (reported by its station) before it answers.
   */
  async function shop(o: ShopOptions): Promise<Shop> {
    const app = t();
    const { token, at, stations, template, tags, tokens, otherStoreAdmin } = await seedShop(app, o);
    const otherJobs: Shop['otherJobs'] = [];
    const delivery = app.app.delivery;
    if (!delivery) throw new Error('no broker');
    const jobs = new Map<string, Array<{ id: string; rev: number }>>();
    const flapOf = (k: number) => (Array.isArray(o.flap) ? (o.flap[k] ?? null) : (o.flap ?? null)) as FlapSpec | null;
    sim = await startSimulator({
      url: delivery.url,
      stations: stations.map((st, k) => ({
        tenantId: at.tenantId,
        sn: st.sn,
        secret: st.secret,
        flap: flapOf(k),
        tags: tags
          .filter((x) => x.sn === st.sn)
          .map((x, i) => ({ id: x.hw, hw: '05', wakeS: 40, x: 2 + (i % 10), y: 1 + Math.floor(i / 10) })),
      })),
      speed: 0,
      seed: o.sn,
      start: app.clock.now(),
      queueSize: o.queueSize,
      onJobs: (_station, list) => {
        for (const j of list) {
          if (j.kind !== 'image') {
            otherJobs.push({ kind: j.kind, tag: 'tag' in j ? j.tag : null });
            continue;
          }
          jobs.set(j.tag, [...(jobs.get(j.tag) ?? []), { id: j.id, rev: j.rev }]);
        }
      },
    });
    const s: Shop = {
      token,
      ...at,
      sim,
      delivery,
      tags,
      stations: stations.map((x) => ({ id: x.id, sn: x.sn })),
      templateId: template.id,
      jobs,
      otherJobs,
      tokens,
      otherStoreAdmin,
    };
    await sim.waitFor(() => sim?.stations.every((x) => x.isWelcomed) ?? false, { what: 'welcome' });
    // Every tag checks in and is reported: the server knows its route.
    await until(s, 'tags routed', async () => {
      const rows = await app.app.services.db
        .selectFrom('tags')
        .select('station_id')
        .where('store_id', '=', at.storeId)
        .execute();
      return rows.every((r) => r.station_id !== null);
    });
    return s;
  }

  const tagRow = (id: number) =>
    t().app.services.db.selectFrom('tags').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** What the label of a tag with these values looks like, rendered here from the template. */
  async function expectedHash(s: Shop, values: Record<string, string>) {
    const docs = await templates.documentsOf(t().app.services.db, s.tenantId, [s.templateId]);
    const found = docs.get(s.templateId);
    if (!found) throw new Error('template');
    const [out] = await renderJobs([
      { tenantId: s.tenantId, tagId: 0, doc: found.doc, data: values, model: '05', colour: 'bwr' },
    ]);
    if (!out || !('hash' in out)) throw new Error('render failed');
    return out.hash;
  }

  const progressOf = (s: Shop, id: number) =>
    call<{ status: string; done: number; failed: number; total: number; createdAt: number }>(
      '/mgr/request/get',
      { id },
      s.token,
    );

  return {
    call,
    settle,
    advance,
    until,
    shop,
    tagRow,
    expectedHash,
    progressOf,
    async stop() {
      await sim?.stop();
      sim = undefined;
    },
  };
}
