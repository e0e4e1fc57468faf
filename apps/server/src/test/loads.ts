import { request } from 'node:http';
import { priceLabel } from '@esl/labels/testing';
import type { FastifyInstance } from 'fastify';
import { buildShop, buildStation, insertBoundTags } from './business';
import { callApi } from './harness';

/*
 * The costly work of issue 25 item 5 against a listening app, over real HTTP (body parsing
 * included): an over-size upload, a large CSV import, a full-store re-render; and the console call
 * measured meanwhile. Used by api/console-under-load.test.ts and bench/console-stall.bench.ts.
 */

export interface HttpAnswer {
  status: number;
  body: string;
  ms: number;
}

type BodyWriter = (write: (b: Buffer) => Promise<void>) => Promise<void>;

/** One POST under /api; the body is a buffer or written chunk by chunk (with back-pressure). */
export function post(
  port: number,
  path: string,
  token: string,
  body: Buffer | BodyWriter,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  const start = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `/api${path}`,
        method: 'POST',
        headers: { token, 'accept-language': 'en', 'content-type': 'application/json', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            ms: performance.now() - start,
          }),
        );
      },
    );
    // A refused upload closes the connection while the client still writes: that is an answer.
    req.on('error', (err) => resolve({ status: 0, body: String(err), ms: performance.now() - start }));
    if (Buffer.isBuffer(body)) {
      req.end(body);
      return;
    }
    const write = (b: Buffer) =>
      new Promise<void>((ok) => {
        if (req.destroyed) return ok();
        if (req.write(b)) ok();
        else req.once('drain', ok);
      });
    void body(write).then(() => req.end());
  });
}

/** A multipart body of one file of `size` bytes in field `file`, written a megabyte at a time. */
export function multipartStream(filename: string, size: number, fill: (at: number, chunk: Buffer) => void) {
  const boundary = `----load${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const write: BodyWriter = async (out) => {
    await out(head);
    for (let at = 0; at < size; at += 1 << 20) {
      const chunk = Buffer.alloc(Math.min(1 << 20, size - at));
      fill(at, chunk);
      await out(chunk);
    }
    await out(tail);
  };
  const headers = {
    'content-type': `multipart/form-data; boundary=${boundary}`,
    'content-length': String(head.length + size + tail.length),
  };
  return { write, headers };
}

/**
 * A shop (buildShop) with `tags` bound tags (model 05, 250 × 122 black/white/red) on one station,
 * a price label for them by the default rule, and the app listening on a free port.
 */
export async function loadShop(app: FastifyInstance, tags: number) {
  const shop = await buildShop(app);
  const ok = async <T>(path: string, body: object) => {
    const res = await callApi<T>(app, path, body, { token: shop.tokens.admin });
    if (res.code !== 0) throw new Error(`${path}: ${res.msg}`);
    return res.data;
  };
  const template = await ok<{ id: number }>('/mgr/templ/addtemple', { name: 'load', model: '05' });
  const doc = priceLabel({ w: 250, h: 122, model: '05', barcode: true });
  await ok('/mgr/templ/alerttempData', { id: template.id, doc });
  await ok('/mgr/templ/setrule', { kind: 'default', model: '05', templateId: template.id });
  const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
  const station = await buildStation(app, at);
  await insertBoundTags(app.services.db, at, tags, { hwPrefix: 'L', priceCents: (i) => 100 + i, now: Date.now() });
  await app.services.db
    .updateTable('tags')
    .set({ station_id: station.id })
    .where('store_id', '=', at.storeId)
    .execute();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app does not listen on a port');
  return { shop, port: address.port, token: shop.tokens.admin };
}

/**
 * The costly calls, each answering what the server said. The import's file is made here, before
 * any timing: built when the call starts, its 100,000 lines held the measuring process's own
 * event loop ~150–280 ms, counted as the server's stall.
 */
export function costlyWork(app: FastifyInstance, port: number, token: string, rows: number) {
  const lines = ['条码,名称,价格'];
  for (let i = 0; i < rows; i++) lines.push(`${7_000_000_000_000 + i},Product ${i},${(i % 500) + 1}.50`);
  const csv = Buffer.from(lines.join('\n'));
  return {
    /** 65 MB to the product import, over its 64 MB limit. */
    upload: async () => {
      const body = multipartStream('big.csv', 65 * 1024 * 1024, (_, c) => c.fill(0x61));
      return post(port, '/mgr/product/import', token, body.write, body.headers);
    },
    /** A CSV of `rows` new products. */
    import: async () => {
      const body = multipartStream('products.csv', csv.length, (at, c) => csv.copy(c, 0, at, at + c.length));
      return post(port, '/mgr/product/import', token, body.write, body.headers);
    },
    /** Every tag of the store re-rendered (refresh all), answered once no label is left to render. */
    render: async () => {
      const answer = await post(port, '/mgr/tag/flashallesl', token, Buffer.from('{}'));
      for (;;) {
        const left = await app.services.db
          .selectFrom('device_tasks')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('state', '=', 'render')
          .executeTakeFirstOrThrow();
        if (Number(left.n) === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      return answer;
    },
  };
}

/** The console call measured: the tag list's first page, as the tags page asks it. */
export const consoleCall = (port: number, token: string) =>
  post(port, '/mgr/tag/list', token, Buffer.from(JSON.stringify({ page: 1, limit: 20 })));

/**
 * The console call's answer times, one after another (20 ms apart), `count` of them or, given
 * `work`, until it ends. A call that does not answer 200 throws.
 */
export async function timeCalls(port: number, token: string, work: Promise<unknown> | null, count = 100_000) {
  const times: number[] = [];
  let done = false;
  void work?.finally(() => {
    done = true;
  });
  for (let i = 0; i < count && !(work && done); i++) {
    const a = await consoleCall(port, token);
    if (a.status !== 200 || !a.body.startsWith('{"code":0'))
      throw new Error(`the console call answered ${a.status}: ${a.body.slice(0, 200)}`);
    times.push(a.ms);
    await new Promise((r) => setTimeout(r, 20));
  }
  await work;
  return times;
}

export const quantile = (xs: readonly number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN;
};
