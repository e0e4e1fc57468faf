import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AddStationData, Template } from '@esl/contract';
import { priceLabel } from '@esl/labels/testing';
import { type Simulator, startSimulator } from '@esl/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import type { Delivery } from '../delivery/wiring';
import { verify } from '../infra/lib/signature';
import { renderJobs } from '../infra/render';
import { CALLBACK_HEADERS } from '../modules/callbacks/sender';
import * as templates from '../modules/templates/service';
import { buildShop, insertBoundTags } from '../test/business';
import { testDatabases } from '../test/databases';
import { type TestApp, useApp } from '../test/harness';
import { type Key, send } from '../test/open';

// Issue 15 end to end: an ERP upserts 1,000 products in a signed /open/v1 call, then a tenth of
// them again; the server re-renders the labels of their tags and delivers them through simulated stations (the
// tags decode what they receive); each upsert's request id answers its progress, every tag done;
// the tenant's callback receiver on 127.0.0.1 gets one signed tag.result per tag and label
// revision and one request.done per upsert — although it refused connections during both rounds
// and then answered 500 for a while: retried until it answers, none lost, each tag's in order.

const TAGS = 1000;
const STATIONS = 4;
const PER_STATION = TAGS / STATIONS;

const doc = priceLabel({ model: '05', w: 250, h: 122, colourType: 'bwr' });

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  event: {
    id: string;
    type: string;
    data: { tagId: number; hardwareId: string; rev: number; state: string; requestId: number | null };
  };
}

/** The tenant's callback receiver: 'down' refuses connections (not listening), '500' and 'ok' answer. */
async function receiver() {
  const hits: Hit[] = [];
  let mode: '500' | 'ok' = '500';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = mode === 'ok' ? 200 : 500;
      hits.push({ path: req.url ?? '', headers: req.headers, body, status, event: JSON.parse(body) });
      res.statusCode = status;
      res.end(status === 200 ? 'ok' : 'down for maintenance');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return {
    hits,
    url: `http://127.0.0.1:${port}/erp/esl-events?v=1`,
    /** Stops listening: connections are refused. */
    down: close,
    /** Listens again on the same port, answering `m`. */
    up: (m: '500' | 'ok') => {
      mode = m;
      return server.listening
        ? Promise.resolve()
        : new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
    },
    answer: (m: '500' | 'ok') => {
      mode = m;
    },
    close,
  };
}

describe.each(await testDatabases())('bulk upsert through the integration API to tags and callbacks ($name)', (db) => {
  const t = useApp(db, {
    mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 },
    callbacks: { allowLoopback: true, allowPrivate: false, timeoutMs: 2000, tickMs: 0 },
  });
  let sim: Simulator | undefined;
  let rx: Awaited<ReturnType<typeof receiver>> | undefined;
  afterAll(async () => {
    await sim?.stop();
    await rx?.close();
  });

  /** Lets the server handle what the stations sent and the engine finish its pump. */
  async function settle(d: Delivery) {
    for (let i = 0; i < 3; i++) {
      await d.gateway.idle();
      await d.tasks.idle();
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it(`${TAGS} products upserted, then a tenth again: every tag shows its new price, every callback arrives signed, in order`, async () => {
    let steps = 0;
    const app: TestApp = t();
    const { clock } = app;
    const services = app.app.services;
    const delivery = app.app.delivery;
    if (!delivery) throw new Error('no broker');
    const world = await buildShop(app.app);
    const token = world.tokens.admin;
    const at = { tenantId: world.tenant.id, storeId: world.store.id };
    const key: Key = { ck: world.tenant.ck, sk: world.tenant.sk };
    const ok = async <T>(path: string, body: object) => {
      const res = await app.call<T>(path, body, { token });
      expect(res.code, `${path}: ${res.msg}`).toBe(0);
      return res.data;
    };
    const stations: AddStationData[] = [];
    for (let i = 0; i < STATIONS; i++) stations.push(await ok<AddStationData>('/mgr/ap/add', { sn: `OPEN-BULK-${i}` }));
    const template = await ok<Template>('/mgr/templ/addtemple', { name: 'erp price', model: '05' });
    await ok('/mgr/templ/alerttempData', { id: template.id, doc });
    await ok('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
    const tags = await insertBoundTags(services.db, at, TAGS, {
      hwPrefix: 'E1',
      priceCents: (i) => 100 + i,
      now: clock.now(),
    });
    const barcodes = await services.db
      .selectFrom('products')
      .select(['id', 'barcode', 'name'])
      .where('store_id', '=', at.storeId)
      .execute();
    const productOf = new Map(barcodes.map((p) => [p.id, p]));

    // The ERP's receiver, set through the API; down (refusing) from the start.
    rx = await receiver();
    const set = await send(app.app, key, '/callback/set', { url: rx.url });
    expect(set.code, set.msg).toBe(0);
    await rx.down();

    sim = await startSimulator({
      url: delivery.url,
      stations: stations.map((st, s) => ({
        tenantId: at.tenantId,
        sn: st.sn,
        secret: st.secret,
        tags: tags.slice(s * PER_STATION, (s + 1) * PER_STATION).map((x, i) => ({
          id: x.hw,
          hw: '05',
          wakeS: 40,
          x: 1 + (i % 10),
          y: 1 + (Math.floor(i / 10) % 10),
        })),
      })),
      speed: 0,
      seed: 'open-bulk',
      start: clock.now(),
    });
    const s = sim;
    await s.waitFor(() => s.stations.every((x) => x.isWelcomed), { what: 'welcome' });

    /** Moves both clocks on until `pred` holds; the callback sender runs every few steps, as its timer would. */
    async function until(what: string, pred: () => boolean | Promise<boolean>, maxMs = 900_000, step = 2000) {
      for (let done = 0; done <= maxMs; done += step) {
        await settle(delivery as Delivery);
        if (await pred()) return;
        clock.advance(step);
        await s.clock.advance(step);
        await delivery?.tasks.tick();
        if (++steps % 5 === 0) await app.app.callbacks.tick();
      }
      throw new Error(`timed out waiting for ${what}`);
    }
    await until('tags routed', async () => {
      const row = await services.db
        .selectFrom('tags')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('store_id', '=', at.storeId)
        .where('station_id', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n) === 0;
    });

    /** Every tag of `changed` shows a label rendered since the last round (its desired hash moved); the others kept theirs. */
    let before = new Map<string, string | null>();
    const shown = (changed: ReadonlySet<string>) => async () => {
      const rows = await services.db
        .selectFrom('tags')
        .select(['hardware_id', 'desired_hash'])
        .where('store_id', '=', at.storeId)
        .execute();
      const want = new Map(rows.map((r) => [r.hardware_id, r.desired_hash]));
      const all = tags.every((x) => {
        const hash = want.get(x.hw);
        const moved = hash !== before.get(x.hw);
        return hash && moved === changed.has(x.hw) && s.tag(x.hw).screen()?.hash === hash;
      });
      if (all) before = want;
      return all;
    };
    // Seeded at 1.00–10.99; round 1 sets 20.00–29.99, round 2 40.00–49.99: every price given changes.
    const priceOf = (round: number, i: number) =>
      `${round * 20 + Math.floor(i / 100)}.${String(i % 100).padStart(2, '0')}`;
    // Round 1: all 1,000 products in one signed call (the most a call takes). Round 2: every
    // tenth again, so 100 tags have two label revisions and two events whose order counts.
    const second = tags.filter((_, i) => i % 10 === 3);
    const secondSet = new Set(second.map((x) => x.hw));
    const lastPrice = new Map<string, string>();
    const requests: Array<{ requestId: number; total: number }> = [];
    type Progress = {
      status: string;
      total: number;
      done: number;
      failed: number;
      results: Array<{ hardwareId: string; state: string; code: string | null }>;
    };
    for (const [round, subset] of [
      [1, tags],
      [2, second],
    ] as const) {
      const products = subset.map((x) => {
        const price = priceOf(round, tags.indexOf(x));
        lastPrice.set(x.hw, price);
        return { barcode: productOf.get(x.productId)?.barcode as string, price };
      });
      const upsert = await send<{ requestId: number }>(app.app, key, '/products/upsert', {
        store: world.store.code,
        products,
      });
      expect(upsert.code, upsert.msg).toBe(0);
      expect(upsert.data).toEqual({
        created: 0,
        updated: subset.length,
        unchanged: 0,
        requestId: expect.any(Number),
        tasks: subset.length,
      });
      const { requestId } = upsert.data;
      requests.push({ requestId, total: subset.length });
      await until(`round ${round} on its tags`, shown(new Set(subset.map((x) => x.hw))));
      // "Has my price push reached the shelves?": the request counts every tag done, each listed.
      const progress = async () => (await send<Progress>(app.app, key, '/requests/get', { requestId })).data;
      await until(`round ${round}'s request done`, async () => (await progress()).status === 'done');
      const p = await progress();
      expect([p.total, p.done, p.failed]).toEqual([subset.length, subset.length, 0]);
      expect(p.results.map((r) => r.hardwareId).sort()).toEqual(subset.map((x) => x.hw).sort());
      expect(p.results.every((r) => r.state === 'done' && r.code === null)).toBe(true);
    }

    // The new price is what the tags decoded: a few labels rendered here from the product.
    const docs = await templates.documentsOf(services.db, at.tenantId, [template.id]);
    const found = docs.get(template.id);
    if (!found) throw new Error('template');
    for (const i of [0, 3, 517, TAGS - 1]) {
      const x = tags[i] as (typeof tags)[number];
      const [out] = await renderJobs([
        {
          tenantId: at.tenantId,
          tagId: 0,
          doc: found.doc,
          data: { name: productOf.get(x.productId)?.name as string, price: lastPrice.get(x.hw) as string },
          model: '05',
          colour: 'bwr',
        },
      ]);
      if (!out || !('hash' in out)) throw new Error('render failed');
      expect(s.tag(x.hw).screen()?.hash).toBe(out.hash);
    }

    // Every label revision ended in the tag log, and wrote one callback event. A tag shows its
    // picture before its station's result reaches the server: wait for the results, not longer.
    const resultEvents = () =>
      services.db
        .selectFrom('callback_outbox')
        .select(['event_id', 'state'])
        .where('tenant_id', '=', at.tenantId)
        .where('type', '=', 'tag.result')
        .execute();
    await until('every result stored', async () => (await resultEvents()).length >= TAGS + second.length);
    const events = await resultEvents();
    expect(events).toHaveLength(TAGS + second.length);
    // Down all along: attempts were made (refused), nothing delivered yet.
    const refused = await services.db
      .selectFrom('callback_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', at.tenantId)
      .where('attempts', '>', 0)
      .executeTakeFirstOrThrow();
    expect(Number(refused.n)).toBeGreaterThan(0);
    expect(rx.hits).toEqual([]);
    // Back, but answering 500 for a few rounds of the sender; then well.
    await rx.up('500');
    clock.advance(60_000);
    for (let i = 0; i < 3; i++) await app.app.callbacks.tick();
    expect(rx.hits.length).toBeGreaterThan(0);
    expect(rx.hits.every((h) => h.status === 500)).toBe(true);
    rx.answer('ok');
    for (let i = 0; i < 200; i++) {
      while ((await app.app.callbacks.tick()) > 0);
      const pending = await services.db
        .selectFrom('callback_outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', at.tenantId)
        .where('state', '<>', 'sent')
        .executeTakeFirstOrThrow();
      if (Number(pending.n) === 0) break;
      clock.advance(5 * 60_000);
    }
    // Nothing lost: every event delivered (2xx) exactly once, and nothing else was.
    const delivered = rx.hits.filter((h) => h.status === 200 && h.event.type === 'tag.result');
    expect(delivered.map((h) => h.event.id).sort()).toEqual(events.map((e) => e.event_id).sort());
    // Each tag's result names the upsert behind it; each upsert's completion came once.
    const roundOf = new Map(requests.map((r, i) => [r.requestId, i + 1]));
    expect(delivered.every((h) => roundOf.has(h.event.data.requestId ?? 0))).toBe(true);
    const completed = rx.hits
      .filter((h) => h.status === 200 && h.event.type === 'request.done')
      .sort((x, y) => Number(x.event.data.requestId) - Number(y.event.data.requestId));
    expect(completed.map((h) => h.event.data)).toEqual(
      requests.map((r) => ({
        storeId: at.storeId,
        requestId: r.requestId,
        kind: 'product.upsert',
        total: r.total,
        done: r.total,
        failed: 0,
      })),
    );
    // Signed with the tenant's sk over the path as requested, the raw body, its timestamp and nonce.
    for (const h of rx.hits) {
      expect(h.path).toBe('/erp/esl-events?v=1');
      expect(h.headers['x-esl-key']).toBe(key.ck);
      const parts = {
        method: 'POST',
        path: h.path,
        timestamp: String(h.headers['x-esl-timestamp']),
        nonce: String(h.headers['x-esl-nonce']),
        body: h.body,
      };
      expect(verify(key.sk, parts, String(h.headers['x-esl-signature']))).toBe(true);
    }
    // Per tag: its revisions in order, each done; no attempt of a later one before the earlier went through.
    const byTag = new Map<string, Hit[]>();
    for (const h of rx.hits.filter((x) => x.event.type === 'tag.result'))
      byTag.set(h.event.data.hardwareId, [...(byTag.get(h.event.data.hardwareId) ?? []), h]);
    expect(byTag.size).toBe(TAGS);
    for (const x of tags) {
      const hits = byTag.get(x.hw) ?? [];
      const firstOk = hits.findIndex((h) => h.status === 200);
      expect(
        hits.slice(0, firstOk + 1).every((h) => h.event.data.rev === hits[0]?.event.data.rev),
        `${x.hw}: a later event tried before the earlier went through`,
      ).toBe(true);
      const ok = hits.filter((h) => h.status === 200).map((h) => [h.event.data.rev, h.event.data.state]);
      expect(ok, x.hw).toHaveLength(secondSet.has(x.hw) ? 2 : 1);
      expect(ok.every(([, state]) => state === 'done')).toBe(true);
      const revs = ok.map(([rev]) => Number(rev));
      expect(revs).toEqual([...new Set(revs)].sort((p, q) => p - q));
      // Each event's attempts as received: numbered upwards (the refused ones were not received).
      for (const id of new Set(hits.map((h) => h.event.id))) {
        const n = hits.filter((h) => h.event.id === id).map((h) => Number(h.headers[CALLBACK_HEADERS.attempt]));
        expect(n).toEqual([...n].sort((a, b) => a - b));
      }
    }
  }, 240_000);
});
