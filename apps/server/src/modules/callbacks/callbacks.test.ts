import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CallbackDelivery, type Envelope, ErrorCode, OPEN_BASE, OPEN_HEADERS, type PushLog } from '@esl/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { isSelf, refusal, STRICT } from '../../infra/lib/address';
import { sign, verify } from '../../infra/lib/signature';
import { enqueueTagResult, type TagResultData } from '../../outbox/results/repository';
import * as slots from '../../outbox/slots/repository';
import { buildTag, useStore } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { buildTenant, buildWorld, login } from '../../test/factories';
import type { TestApp } from '../../test/harness';
import { useApp } from '../../test/harness';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, backoffMs, CALLBACK_HEADERS, KEEP_FINISHED_MS, MAX_ATTEMPTS } from './sender';

type Reply = 'ok' | 500 | 404 | 'hang';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; time: number; data: Record<string, unknown> };
}

/** A callback receiver on 127.0.0.1: records each request; answers from `replies` (then 'ok'). */
async function receiver() {
  const got: Received[] = [];
  const replies: Reply[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      got.push({ path: req.url ?? '', headers: req.headers, body, event: JSON.parse(body) });
      const reply = replies.shift() ?? 'ok';
      if (reply === 'hang') return; // never answers: the sender's timeout ends it
      res.statusCode = reply === 'ok' ? 200 : reply;
      res.end(reply === 'ok' ? 'thanks' : `broken ${'x'.repeat(5000)}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    got,
    replies,
    url: `http://127.0.0.1:${port}/hooks/esl?src=test`,
    port,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

type Receiver = Awaited<ReturnType<typeof receiver>>;

/** A signed integration call (docs/INTEGRATION.md) with a tenant's key pair. */
async function signed<T>(app: FastifyInstance, key: { ck: string; sk: string }, path: string, body: unknown) {
  const url = OPEN_BASE + path;
  const text = JSON.stringify(body);
  const timestamp = String(app.services.config.now());
  const nonce = `n${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`.padEnd(16, '0');
  const signature = sign(key.sk, { method: 'POST', path: url, timestamp, nonce, body: text });
  const res = await app.inject({
    method: 'POST',
    url,
    payload: text,
    headers: {
      'content-type': 'application/json',
      'accept-language': 'en',
      [OPEN_HEADERS.key]: key.ck,
      [OPEN_HEADERS.timestamp]: timestamp,
      [OPEN_HEADERS.nonce]: nonce,
      [OPEN_HEADERS.signature]: signature,
    },
  });
  return res.json() as Envelope<T>;
}

/** Ticks the sender until nothing is due (each key's next event is due once the one before it went). */
async function drain(app: FastifyInstance): Promise<number> {
  let n = 0;
  for (let i = 0; i < 50; i++) {
    const sent = await app.callbacks.tick();
    if (sent === 0) return n;
    n += sent;
  }
  throw new Error('the sender did not settle');
}

function tagResult(storeId: number, tagId: number, rev: number, state: 'done' | 'failed' = 'done'): TagResultData {
  return {
    storeId,
    tagId,
    hardwareId: `HW${tagId}`,
    requestId: null,
    kind: 'refresh',
    rev,
    state,
    code: state === 'done' ? null : 'timeout',
  };
}

function outbox(app: FastifyInstance, tenantId: number) {
  return app.services.db
    .selectFrom('callback_outbox')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('id')
    .execute();
}

type VerifyCallback = (sk: string, path: string, headers: IncomingHttpHeaders, body: Buffer | string) => boolean;

/** The receiver's check from docs/INTEGRATION.md ("Verifying a callback"), imported as written there. */
async function docsVerifier(dir: string): Promise<VerifyCallback> {
  const doc = readFileSync(new URL('../../../../../docs/INTEGRATION.md', import.meta.url), 'utf8');
  const from = doc.indexOf('### Verifying a callback');
  const start = doc.indexOf('```ts\n', from);
  const end = doc.indexOf('\n```', start + 1);
  if (from < 0 || start < 0 || end < 0) throw new Error('docs/INTEGRATION.md has no callback verification example');
  const file = join(dir, 'verify-callback.ts');
  writeFileSync(file, doc.slice(start + 6, end));
  const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { verifyCallback: VerifyCallback };
  return mod.verifyCallback;
}

const HOUR = 60 * 60_000;

describe('callback retry schedule', () => {
  it('keeps retrying for 24 to 33 hours before giving up, each wait at most an hour', () => {
    const span = (r: number) => {
      let total = 0;
      for (let n = 1; n < MAX_ATTEMPTS; n++) total += backoffMs(n, () => r);
      return total;
    };
    // The shortest schedule (every jitter at its least) still spans a day; the longest not much more.
    expect(span(0)).toBeGreaterThanOrEqual(24 * HOUR);
    expect(span(0.999_999)).toBeLessThanOrEqual(33 * HOUR);
    for (let n = 1; n <= MAX_ATTEMPTS; n++) expect(backoffMs(n, () => 0.999_999)).toBeLessThanOrEqual(BACKOFF_CAP_MS);
    expect(backoffMs(1, () => 0)).toBe(1500);
    expect(backoffMs(MAX_ATTEMPTS - 1, () => 0)).toBe(0.75 * HOUR);
  });
});

describe('callback addresses', () => {
  it('refuses loopback, link-local, metadata, private and reserved addresses by default', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '169.254.169.254', 'fe80::1', '10.1.2.3']) {
      expect(refusal(a, STRICT), a).not.toBeNull();
    }
    for (const a of ['172.20.0.1', '192.168.1.1', '100.64.0.1', 'fd00::1', '0.0.0.0', '::', '224.0.0.1']) {
      expect(refusal(a, STRICT), a).not.toBeNull();
    }
    expect(refusal('93.184.216.34', STRICT)).toBeNull();
    expect(refusal('2606:4700::1111', STRICT)).toBeNull();
    // Allowing loopback (tests) and private networks (a LAN receiver) never opens link-local.
    const open = { allowLoopback: true, allowPrivate: true };
    expect(refusal('127.0.0.1', open)).toBeNull();
    expect(refusal('10.1.2.3', open)).toBeNull();
    expect(refusal('169.254.169.254', open)).toBe('reserved');
    expect(refusal('fe80::1', open)).toBe('reserved');
  });

  it('knows this server by its public address', () => {
    const self = ['https://esl.example.com'];
    expect(isSelf(new URL('https://esl.example.com/hook'), self)).toBe(true);
    expect(isSelf(new URL('http://ESL.example.com:8080/hook'), self)).toBe(true);
    expect(isSelf(new URL('https://erp.example.com/hook'), self)).toBe(false);
    // On loopback (tests) the port tells the server from a receiver beside it.
    expect(isSelf(new URL('http://127.0.0.1:8080/api'), ['http://127.0.0.1:8080'])).toBe(true);
    expect(isSelf(new URL('http://127.0.0.1:9090/hook'), ['http://127.0.0.1:8080'])).toBe(false);
  });
});

describe.each(await testDatabases())('callbacks on $name', (db) => {
  describe('with loopback allowed (a receiver on 127.0.0.1)', () => {
    const t = useApp(db, {
      publicUrl: 'http://127.0.0.1:1',
      callbacks: { allowLoopback: true, allowPrivate: false, timeoutMs: 400, tickMs: 0 },
    });
    let a: Receiver;
    let b: Receiver;
    const dir = mkdtempSync(join(tmpdir(), 'esl-callbacks-'));
    beforeAll(async () => {
      a = await receiver();
      b = await receiver();
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    });

    async function tenantWithUrl(app: TestApp, url: string) {
      const world = await buildWorld(app.app);
      const set = await app.call('/user/setcallback', { url }, { token: world.tokens.admin });
      expect(set.code, set.msg).toBe(0);
      return world;
    }

    it('delivers tag results and request completion, signed with the tenant key, in order per tag', async () => {
      const app = t();
      a.got.length = 0;
      const w = await tenantWithUrl(app, a.url);
      const store = w.stores[0] as { id: number };
      const tag = await buildTag(app.app, { tenantId: w.tenant.id, storeId: store.id });
      const now = app.clock.now();
      // Three revisions of one tag, then a request of two tags completing.
      for (const rev of [1, 2, 3]) {
        await enqueueTagResult(
          app.app.services.db,
          w.tenant.id,
          tagResult(store.id, tag.id, rev, rev === 2 ? 'failed' : 'done'),
          now,
        );
      }
      const db = app.app.services.db;
      const requestId = await slots.insertRequest(db, {
        tenantId: w.tenant.id,
        storeId: store.id,
        kind: 'tag.refresh',
        tagId: null,
        userId: null,
        params: {},
        now,
      });
      await slots.setRequestTotal(db, requestId, 2, now);
      await slots.countRequest(db, requestId, 1, 0, now);
      expect((await outbox(app.app, w.tenant.id)).filter((r) => r.type === 'request.done')).toHaveLength(0);
      await db.transaction().execute((trx) => slots.countRequest(trx, requestId, 0, 1, now));
      await slots.countRequest(db, requestId, 1, 0, now); // a late count: no second event
      expect((await outbox(app.app, w.tenant.id)).filter((r) => r.type === 'request.done')).toHaveLength(1);

      await drain(app.app);
      const verifyDoc = await docsVerifier(dir);
      const other = await buildTenant(app.app);
      expect(a.got.map((g) => g.event.type)).toEqual(['tag.result', 'request.done', 'tag.result', 'tag.result']);
      const revs = a.got.filter((g) => g.event.type === 'tag.result').map((g) => g.event.data.rev);
      expect(revs).toEqual([1, 2, 3]);
      expect(a.got[2]?.event.data).toMatchObject({ tagId: tag.id, state: 'failed', code: 'timeout' });
      expect(a.got[1]?.event.data).toMatchObject({ requestId, total: 2, done: 1, failed: 1 });
      for (const g of a.got) {
        expect(g.path).toBe('/hooks/esl?src=test');
        expect(g.headers[OPEN_HEADERS.key]).toBe(w.tenant.ck);
        expect(g.headers[CALLBACK_HEADERS.eventId]).toBe(g.event.id);
        const parts = {
          method: 'POST',
          path: g.path,
          timestamp: String(g.headers[OPEN_HEADERS.timestamp]),
          nonce: String(g.headers[OPEN_HEADERS.nonce]),
          body: g.body,
        };
        expect(verify(w.tenant.sk, parts, String(g.headers[OPEN_HEADERS.signature]))).toBe(true);
        expect(verifyDoc(w.tenant.sk, g.path, g.headers, g.body)).toBe(true);
        expect(verifyDoc(other.sk, g.path, g.headers, g.body)).toBe(false);
        // A changed body no longer verifies.
        expect(verify(w.tenant.sk, { ...parts, body: `${g.body} ` }, String(g.headers[OPEN_HEADERS.signature]))).toBe(
          false,
        );
      }
      expect((await outbox(app.app, w.tenant.id)).every((r) => r.state === 'sent' && r.last_status === 200)).toBe(true);

      // The data-push log: the rounds' rows, source 'callback', counting what was delivered.
      const pushes = await db
        .selectFrom('push_log')
        .selectAll()
        .where('tenant_id', '=', w.tenant.id)
        .where('source', '=', 'callback')
        .execute();
      expect(pushes.reduce((n, p) => n + Number(p.rendered), 0)).toBe(4);
      expect(pushes.reduce((n, p) => n + Number(p.failed), 0)).toBe(0);
      await useStore(app.app, w.tokens.admin, store.id);
      const listed = await app.call<Array<{ source: string; sourceName: string; rendered: number }>>(
        '/data/pushexp/List',
        { source: 'callback', page: 1, limit: 50 },
        { token: w.tokens.admin },
      );
      expect(listed.code, listed.msg).toBe(0);
      expect(listed.data.length).toBe(pushes.length);
      expect(listed.data.every((r) => r.source === 'callback' && r.sourceName === 'Callbacks')).toBe(true);
    });

    it('retries a failing receiver (500, then a timeout) with backoff until it answers, keeping order', async () => {
      const app = t();
      a.got.length = 0;
      const w = await tenantWithUrl(app, a.url);
      const store = w.stores[0] as { id: number };
      const tag = await buildTag(app.app, { tenantId: w.tenant.id, storeId: store.id });
      const db = app.app.services.db;
      await enqueueTagResult(db, w.tenant.id, tagResult(store.id, tag.id, 1), app.clock.now());
      await enqueueTagResult(db, w.tenant.id, tagResult(store.id, tag.id, 2), app.clock.now());
      a.replies.push(500, 'hang');

      const t0 = app.clock.now();
      expect(await drain(app.app)).toBe(1);
      let rows = await outbox(app.app, w.tenant.id);
      expect(rows[0]).toMatchObject({ state: 'pending', attempts: 1, last_status: 500, last_error: 'HTTP 500' });
      expect((rows[0]?.excerpt ?? '').length).toBeLessThanOrEqual(200);
      expect(Number(rows[0]?.next_at)).toBeGreaterThanOrEqual(t0 + BACKOFF_BASE_MS / 2);
      expect(Number(rows[0]?.next_at)).toBeLessThanOrEqual(t0 + BACKOFF_BASE_MS);
      // Not due yet; the tag's second event waits behind the first.
      expect(await drain(app.app)).toBe(0);

      app.clock.advance(BACKOFF_BASE_MS);
      const t1 = app.clock.now();
      expect(await drain(app.app)).toBe(1);
      rows = await outbox(app.app, w.tenant.id);
      expect(rows[0]).toMatchObject({ state: 'pending', attempts: 2, last_status: null, last_error: 'timeout' });
      expect(Number(rows[0]?.next_at)).toBeGreaterThanOrEqual(t1 + BACKOFF_BASE_MS);
      expect(Number(rows[0]?.next_at)).toBeLessThanOrEqual(t1 + 2 * BACKOFF_BASE_MS);
      expect(rows[1]).toMatchObject({ state: 'pending', attempts: 0 });

      app.clock.advance(2 * BACKOFF_BASE_MS);
      expect(await drain(app.app)).toBe(2);
      rows = await outbox(app.app, w.tenant.id);
      expect(rows.map((r) => [r.state, r.attempts])).toEqual([
        ['sent', 3],
        ['sent', 1],
      ]);
      expect(a.got.map((g) => [g.event.data.rev, g.headers[CALLBACK_HEADERS.attempt]])).toEqual([
        [1, '1'],
        [1, '2'],
        [1, '3'],
        [2, '1'],
      ]);
      const pushes = await db
        .selectFrom('push_log')
        .selectAll()
        .where('tenant_id', '=', w.tenant.id)
        .where('source', '=', 'callback')
        .orderBy('id')
        .execute();
      expect(pushes.map((p) => [Number(p.rendered), Number(p.failed)])).toEqual([
        [0, 1],
        [0, 1],
        [1, 0],
        [1, 0],
      ]);
      expect(JSON.parse(pushes[0]?.exceptions ?? '[]')).toEqual(['HTTP 500']);
    });

    it('counts a receiver failing the same way again on one row, kept out of the data log by default', async () => {
      const app = t();
      a.got.length = 0;
      a.replies.length = 0;
      a.replies.push(404, 404, 404, 500);
      onTestFinished(() => {
        a.replies.length = 0;
      });
      const w = await tenantWithUrl(app, a.url);
      const store = w.stores[0] as { id: number };
      const tag = await buildTag(app.app, { tenantId: w.tenant.id, storeId: store.id });
      const db = app.app.services.db;
      await enqueueTagResult(db, w.tenant.id, tagResult(store.id, tag.id, 1), app.clock.now());
      // Four rounds: three 404s (one problem, counted), then a 500 (another).
      for (let round = 0; round < 4; round++) {
        expect(await drain(app.app)).toBe(1);
        app.clock.advance(BACKOFF_CAP_MS);
      }
      const pushes = await db
        .selectFrom('push_log')
        .selectAll()
        .where('tenant_id', '=', w.tenant.id)
        .where('source', '=', 'callback')
        .orderBy('id')
        .execute();
      expect(pushes.map((p) => [Number(p.tags_affected), Number(p.rendered), Number(p.failed)])).toEqual([
        [3, 0, 3],
        [1, 0, 1],
      ]);
      expect(pushes.map((p) => JSON.parse(p.exceptions))).toEqual([['HTTP 404'], ['HTTP 500']]);
      // The data-push log's default view (the console's) leaves callback deliveries out.
      await useStore(app.app, w.tokens.admin, store.id);
      const list = (body: object) =>
        app.call<PushLog[]>('/data/pushexp/List', { page: 1, limit: 50, ...body }, { token: w.tokens.admin });
      expect((await list({ hideCallbacks: true })).data.filter((r) => r.source === 'callback')).toEqual([]);
      expect((await list({ hideCallbacks: true, source: 'callback' })).data).toHaveLength(2);
    });

    it('retries a day before giving up; the console sends given-up events again, each tag’s in order', async () => {
      const app = t();
      a.got.length = 0;
      // Down (500) until told otherwise (and for no later test, whatever happens here).
      a.replies.length = 0;
      a.replies.push(...Array.from({ length: 400 }, () => 500 as const));
      onTestFinished(() => {
        a.replies.length = 0;
      });
      const w = await tenantWithUrl(app, a.url);
      const store = w.stores[0] as { id: number };
      const tagA = await buildTag(app.app, { tenantId: w.tenant.id, storeId: store.id });
      const tagB = await buildTag(app.app, { tenantId: w.tenant.id, storeId: store.id });
      const db = app.app.services.db;
      const t0 = app.clock.now();
      await enqueueTagResult(db, w.tenant.id, tagResult(store.id, tagA.id, 1), t0);
      await enqueueTagResult(db, w.tenant.id, tagResult(store.id, tagA.id, 2), t0);
      await enqueueTagResult(db, w.tenant.id, tagResult(store.id, tagB.id, 1), t0);

      /** Sends what is due, then moves the clock to the next attempt; until nothing waits. */
      async function runDown() {
        for (let i = 0; i < 400; i++) {
          await drain(app.app);
          const pending = (await outbox(app.app, w.tenant.id)).filter((r) => r.state === 'pending');
          if (pending.length === 0) return;
          // The soonest retry (an event waiting behind its tag's earlier one is due already).
          const waits = pending.map((r) => Number(r.next_at) - app.clock.now()).filter((ms) => ms > 0);
          app.clock.advance(Math.min(...waits));
        }
        throw new Error('still pending');
      }
      await runDown();
      let rows = await outbox(app.app, w.tenant.id);
      expect(rows.map((r) => [r.state, r.attempts])).toEqual([
        ['failed', MAX_ATTEMPTS],
        ['failed', MAX_ATTEMPTS],
        ['failed', MAX_ATTEMPTS],
      ]);
      // Given up only after a day of attempts; the tag's next event went only then.
      const [a1, a2] = rows as [(typeof rows)[number], (typeof rows)[number]];
      expect(Number(a1.finished_at) - t0).toBeGreaterThanOrEqual(24 * HOUR);
      const firstOfA2 = a.got.findIndex((g) => g.event.id === a2.event_id);
      const lastOfA1 = a.got.findLastIndex((g) => g.event.id === a1.event_id);
      expect(firstOfA2).toBeGreaterThan(lastOfA1);
      expect(a.got.filter((g) => g.event.id === a1.event_id).map((g) => g.headers[CALLBACK_HEADERS.attempt])).toEqual(
        Array.from({ length: MAX_ATTEMPTS }, (_, i) => String(i + 1)),
      );

      // A later event of tag A fails too and waits for its next attempt.
      await enqueueTagResult(db, w.tenant.id, tagResult(store.id, tagA.id, 3), app.clock.now());
      await drain(app.app);
      rows = await outbox(app.app, w.tenant.id);
      expect(rows.map((r) => r.state)).toEqual(['failed', 'failed', 'failed', 'pending']);

      // The receiver is back; the console lists the given-up events and sends them again.
      a.replies.length = 0;
      a.got.length = 0;
      // Two days went by: the sessions ended, sign in again.
      const token = await login(app.app, w.users.admin.username);
      const clerkToken = await login(app.app, w.users.clerk.username);
      const failed = await app.call<CallbackDelivery[]>(
        '/user/callbacklog',
        { page: 1, limit: 1, state: 'failed' },
        { token },
      );
      expect(failed.code, failed.msg).toBe(0);
      expect(failed.count).toBe(3);
      expect(failed.data.map((r) => r.state)).toEqual(['failed']);
      const clerk = await app.call('/user/resendcallbacks', {}, { token: clerkToken });
      expect(clerk.code).toBe(ErrorCode.FORBIDDEN);
      const resent = await app.call<{ resent: number }>('/user/resendcallbacks', {}, { token });
      expect(resent.code, resent.msg).toBe(0);
      expect(resent.data).toEqual({ resent: 3 });
      await runDown();
      rows = await outbox(app.app, w.tenant.id);
      expect(rows.every((r) => r.state === 'sent')).toBe(true);
      // Each tag's events in the order they happened (the resent ones before A's waiting one),
      // each once, under its first event id, counted from attempt 1 again.
      const revsOf = (tagId: number) => a.got.filter((g) => g.event.data.tagId === tagId).map((g) => g.event.data.rev);
      expect(revsOf(tagA.id)).toEqual([1, 2, 3]);
      expect(revsOf(tagB.id)).toEqual([1]);
      expect(
        a.got
          .slice(0, 3)
          .map((g) => g.event.id)
          .sort(),
      ).toEqual([rows[0], rows[1], rows[2]].map((r) => r?.event_id).sort());
      expect(
        a.got.filter((g) => g.event.data.rev !== 3).every((g) => g.headers[CALLBACK_HEADERS.attempt] === '1'),
      ).toBe(true);
      const none = await app.call<{ resent: number }>('/user/resendcallbacks', {}, { token });
      expect(none.data).toEqual({ resent: 0 });
      expect((await app.call('/user/callbacklog', { page: 1, limit: 10, state: 'failed' }, { token })).count).toBe(0);
      // With no callback URL there is nowhere to send them: refused, naming the field.
      expect((await app.call('/user/setcallback', { url: '' }, { token })).code).toBe(0);
      const nowhere = await app.call('/user/resendcallbacks', {}, { token });
      expect(nowhere.code).toBe(ErrorCode.VALIDATION);
    });

    it('sends a test event from the console and lists the deliveries of the tenant only', async () => {
      const app = t();
      a.got.length = 0;
      b.got.length = 0;
      const wa = await tenantWithUrl(app, a.url);
      const wb = await tenantWithUrl(app, b.url);
      const noUrl = await buildWorld(app.app);
      const sa = wa.stores[0] as { id: number };
      const sb = wb.stores[0] as { id: number };
      const sn = noUrl.stores[0] as { id: number };
      const db = app.app.services.db;
      await enqueueTagResult(db, wa.tenant.id, tagResult(sa.id, 1001, 1), app.clock.now());
      await enqueueTagResult(db, wb.tenant.id, tagResult(sb.id, 2002, 1), app.clock.now());
      await enqueueTagResult(db, noUrl.tenant.id, tagResult(sn.id, 3003, 1), app.clock.now());
      expect(await outbox(app.app, noUrl.tenant.id)).toHaveLength(0);

      const test = await app.call<{ eventId: string }>('/user/testcallback', {}, { token: wa.tokens.admin });
      expect(test.code, test.msg).toBe(0);
      const none = await app.call('/user/testcallback', {}, { token: noUrl.tokens.admin });
      expect(none.code).toBe(ErrorCode.VALIDATION);
      const clerk = await app.call('/user/testcallback', {}, { token: wa.tokens.clerk });
      expect(clerk.code).toBe(ErrorCode.FORBIDDEN);

      await drain(app.app);
      expect(a.got.map((g) => g.event.type).sort()).toEqual(['tag.result', 'test']);
      expect(a.got.find((g) => g.event.type === 'test')?.event.id).toBe(test.data.eventId);
      expect(a.got.every((g) => g.headers[OPEN_HEADERS.key] === wa.tenant.ck)).toBe(true);
      expect(a.got.some((g) => g.event.data.tagId === 2002)).toBe(false);
      expect(b.got.map((g) => g.event.data.tagId)).toEqual([2002]);
      expect(b.got[0]?.headers[OPEN_HEADERS.key]).toBe(wb.tenant.ck);

      const log = await app.call<CallbackDelivery[]>(
        '/user/callbacklog',
        { page: 1, limit: 10 },
        { token: wa.tokens.admin },
      );
      expect(log.code, log.msg).toBe(0);
      expect(log.data.map((r) => [r.type, r.hardwareId]).sort()).toEqual([
        ['tag.result', 'HW1001'],
        ['test', null],
      ]);
      expect(log.data.every((r) => r.state === 'sent' && r.lastStatus === 200 && r.excerpt === 'thanks')).toBe(true);
      const info = await app.call<{ url: string }>('/user/getcallback', {}, { token: wb.tokens.admin });
      expect(info.data.url).toBe(b.url);
      // Loopback is allowed here, but not this server itself (its PUBLIC_URL).
      const self = await app.call('/user/setcallback', { url: 'http://127.0.0.1:1/api/x' }, { token: wb.tokens.admin });
      expect(self.code).toBe(ErrorCode.VALIDATION);

      // The signed API sets and reads the same URL, for the key's tenant only.
      const viaApi = await signed<{ url: string }>(app.app, wb.tenant, '/callback/set', { url: `${b.url}&v=2` });
      expect(viaApi.code, viaApi.msg).toBe(0);
      expect((await signed<{ url: string }>(app.app, wb.tenant, '/callback/get', {})).data.url).toBe(`${b.url}&v=2`);
      expect((await app.call<{ url: string }>('/user/getcallback', {}, { token: wa.tokens.admin })).data.url).toBe(
        a.url,
      );

      // Clearing the URL drops what still waits.
      await enqueueTagResult(db, wb.tenant.id, tagResult(sb.id, 2002, 2), app.clock.now());
      expect((await app.call('/user/setcallback', { url: '' }, { token: wb.tokens.admin })).code).toBe(0);
      expect(await drain(app.app)).toBe(0);
      expect((await outbox(app.app, wb.tenant.id)).map((r) => r.state)).toEqual(['sent', 'dropped']);

      // Finished events are kept a week for the console, then pruned; a pending one stays.
      await enqueueTagResult(db, wa.tenant.id, tagResult(sa.id, 1001, 2), app.clock.now());
      app.clock.advance(KEEP_FINISHED_MS + 1);
      await app.app.callbacks.prune();
      expect((await outbox(app.app, wb.tenant.id)).length).toBe(0);
      expect((await outbox(app.app, wa.tenant.id)).map((r) => r.state)).toEqual(['pending']);
    });
  });

  describe('with the default address policy', () => {
    const t = useApp(db, { callbacks: { allowLoopback: false, allowPrivate: false, timeoutMs: 400, tickMs: 0 } });
    let a: Receiver;
    beforeAll(async () => {
      a = await receiver();
    });
    afterAll(() => a.close());

    it('refuses callback URLs at loopback, link-local, metadata and private addresses', async () => {
      const app = t();
      const w = await buildWorld(app.app);
      for (const url of [
        a.url,
        `http://localhost:${a.port}/hook`,
        'http://[::1]/hook',
        'http://169.254.169.254/latest/meta-data/',
        'http://[fe80::1]/hook',
        'http://10.0.0.5/hook',
        'http://192.168.1.10/hook',
        'http://0.0.0.0/hook',
      ]) {
        const r = await app.call('/user/setcallback', { url }, { token: w.tokens.admin });
        expect(r.code, url).toBe(ErrorCode.VALIDATION);
        expect(r.msg, url).toContain('private network');
      }
      for (const url of ['ftp://example.com/x', 'not a url', 'http://user:pw@93.184.216.34/']) {
        expect((await app.call('/user/setcallback', { url }, { token: w.tokens.admin })).code, url).toBe(
          ErrorCode.VALIDATION,
        );
      }
      expect((await app.call<{ url: string }>('/user/getcallback', {}, { token: w.tokens.admin })).data.url).toBe('');
      // The signed API refuses the same.
      const viaApi = await signed(app.app, w.tenant, '/callback/set', { url: 'http://169.254.169.254/latest' });
      expect(viaApi.code).toBe(ErrorCode.VALIDATION);
      expect((await signed(app.app, w.tenant, '/callback/set', { url: `http://localhost:${a.port}/` })).code).toBe(
        ErrorCode.VALIDATION,
      );
    });

    it('refuses at send time a URL whose host resolves to loopback (localhost)', async () => {
      const app = t();
      a.got.length = 0;
      const db = app.app.services.db;
      // As if the name had resolved elsewhere when it was saved (DNS rebinding), or the policy changed.
      for (const url of [`http://localhost:${a.port}/hook`, a.url]) {
        const w = await buildWorld(app.app);
        await db
          .insertInto('callback_settings')
          .values({ tenant_id: w.tenant.id, url, updated_at: app.clock.now() })
          .execute();
        const test = await app.call('/user/testcallback', {}, { token: w.tokens.admin });
        expect(test.code).toBe(0);
        await drain(app.app);
        const rows = await outbox(app.app, w.tenant.id);
        expect(
          rows.map((r) => [r.state, r.attempts, r.last_error]),
          url,
        ).toEqual([['pending', 1, 'refused address']]);
      }
      expect(a.got).toHaveLength(0);
    });
  });
});
