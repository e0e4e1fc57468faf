import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import type { OeplApEmulator } from './ap';
import { EMU_TAG_TYPES } from './types';

/** One `/get_db` page stops once its JSON passes about this many bytes. */
const PAGE_BYTES = 5000;

export interface EmuApServer {
  url: string;
  /** Every `/get_db?pos=` asked, in order (tests check the bridge never pages). */
  readonly pagesAsked: number[];
  /** Cuts every WebSocket (a lost connection, not a reboot). */
  dropSockets(): void;
  close(): Promise<void>;
}

type Handler = (q: URLSearchParams, body: () => Promise<FormData>) => Promise<Reply> | Reply;
interface Reply {
  status: number;
  text?: string;
  json?: unknown;
}

/**
 * The emulated AP's HTTP interface and `/ws`, as documented: plain-text replies ("Ok, saved",
 * "mac not found", "Come back later"), JSON for the data endpoints, `Access-Control-Allow-Origin: *`
 * everywhere, no authentication. Binds 127.0.0.1 on a free port unless told otherwise.
 */
export async function serveOeplAp(ap: OeplApEmulator, { port = 0, host = '127.0.0.1' } = {}): Promise<EmuApServer> {
  const pagesAsked: number[] = [];
  const text = (status: number, t: string): Reply => ({ status, text: t });
  const routes: Record<string, Handler> = {
    'GET /get_db': (q) => getDb(ap, q, pagesAsked),
    'GET /backup_db': () => ({ status: 200, json: [...ap.tags.values()].map((t) => t.record()) }),
    'POST /imgupload': async (_q, body) => {
      const form = await body();
      const file = [...form.values()].find((v) => typeof v !== 'string');
      if (!file || typeof file === 'string') return text(400, 'no file');
      const mode = form.get('contentmode');
      const reply = ap.upload(
        String(form.get('mac') ?? ''),
        new Uint8Array(await file.arrayBuffer()),
        dither(form),
        mode === null ? 24 : Number(mode),
      );
      return text(reply.status, reply.text);
    },
    'POST /tag_cmd': async (_q, body) => {
      const form = await body();
      const r = ap.tagCmd(String(form.get('mac') ?? ''), String(form.get('cmd') ?? ''));
      return text(r.status, r.text);
    },
    'GET /led_flash': (q) => {
      const r = ap.ledFlash(q.get('mac') ?? '', q.get('pattern') ?? '');
      return text(r.status, r.text);
    },
    'GET /get_ap_config': () => ({ status: 200, json: apConfig(ap) }),
    'POST /save_apcfg': async (_q, body) => {
      const form = await body();
      const fields: Record<string, string> = {};
      for (const [k, v] of form.entries()) if (typeof v === 'string') fields[k] = v;
      const r = ap.saveConfig(fields);
      return text(r.status, r.text);
    },
    'POST /save_cfg': async (_q, body) => {
      const form = await body();
      const fields: Record<string, string> = {};
      for (const [k, v] of form.entries()) if (typeof v === 'string') fields[k] = v;
      const r = ap.saveTagConfig(fields);
      return text(r.status, r.text);
    },
    'GET /sysinfo': () => ({ status: 200, json: ap.sysinfo() }),
    'POST /set_time': async (_q, body) => {
      const r = ap.setTime(Number((await body()).get('epoch')));
      return text(r.status, r.text);
    },
    'POST /reboot': () => {
      const r = ap.reboot();
      return text(r.status, r.text);
    },
  };

  const server = createServer((req, res) => void handle(req, res, routes));
  const wss = new WebSocketServer({ noServer: true });
  const clients = new Set<WebSocket>();
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/ws' || !ap.running) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      clients.add(ws);
      ap.wsClients = clients.size;
      ws.on('close', () => {
        clients.delete(ws);
        ap.wsClients = clients.size;
      });
    });
  });
  const unsubscribe = ap.onMessage((msg) => {
    const data = JSON.stringify(msg);
    for (const ws of clients) ws.send(data);
  });
  ap.onReboot(() => {
    for (const ws of clients) ws.terminate();
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${host}:${addr.port}`,
    pagesAsked,
    dropSockets: () => {
      for (const ws of clients) ws.terminate();
    },
    close: async () => {
      unsubscribe();
      for (const ws of clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const dither = (form: FormData) => {
  const d = form.get('dither');
  return d === null ? 1 : Number(d);
};

function apConfig(ap: OeplApEmulator): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(ap.config)) out[k] = String(v);
  return {
    ...out,
    C6: '1',
    H2: '0',
    TLSR: '0',
    savespace: '0',
    hasFlasher: '0',
    hasBLE: '0',
    hasSubGhz: '0',
    apstate: String(ap.apstate),
  };
}

/** `/get_db?mac=` one tag; `/get_db?pos=` a page from an offset parsed into one byte (the 255-tag wall). */
function getDb(ap: OeplApEmulator, q: URLSearchParams, pagesAsked: number[]): Reply {
  const mac = q.get('mac');
  if (mac !== null) {
    const tag = ap.tags.get(mac.toUpperCase());
    return { status: 200, json: { tags: tag ? [tag.record()] : [] } };
  }
  const pos = Number(q.get('pos') ?? 0) & 0xff;
  pagesAsked.push(pos);
  const all = [...ap.tags.values()];
  const tags: unknown[] = [];
  let size = 0;
  let i = pos;
  for (; i < all.length && size < PAGE_BYTES; i++) {
    const rec = all[i].record();
    size += JSON.stringify(rec).length + 1;
    tags.push(rec);
  }
  return { status: 200, json: { tags, continu: i < all.length ? i : 0 } };
}

async function handle(req: IncomingMessage, res: ServerResponse, routes: Record<string, Handler>): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  res.setHeader('Access-Control-Allow-Origin', '*');
  const send = (r: Reply) => {
    if (r.json !== undefined) {
      res.writeHead(r.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(r.json));
    } else {
      res.writeHead(r.status, { 'Content-Type': 'text/plain' }).end(r.text ?? '');
    }
  };
  const type = /^\/tagtypes\/([0-9A-Fa-f]{2})\.json$/.exec(url.pathname);
  if (req.method === 'GET' && type) {
    const t = EMU_TAG_TYPES.get(Number.parseInt(type[1], 16));
    return send(t ? { status: 200, json: t } : { status: 404, text: 'File not found' });
  }
  const route = routes[`${req.method} ${url.pathname}`];
  if (!route) return send({ status: 404, text: 'Not found' });
  const body = async () => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers({ 'content-type': req.headers['content-type'] ?? 'application/x-www-form-urlencoded' });
    return new Request('http://x', { method: 'POST', headers, body: Buffer.concat(chunks) }).formData();
  };
  try {
    send(await route(url.searchParams, body));
  } catch (err) {
    send({ status: 500, text: (err as Error).message });
  }
}
