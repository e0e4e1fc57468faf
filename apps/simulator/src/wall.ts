// The store wall (`--http PORT`, DELIVERY.md §8): every simulated tag's screen as the tag itself
// decoded it from the bytes it received, grouped by station, with its id and image version.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync } from 'node:zlib';
import { type IndexImage, indexToPng, pageOfImage } from '@esl/labels';

/** What the wall reads of a station: the simulator's SimStation has all of it. */
/** A tag on the wall: a simulated tag, or an emulated OEPL AP's (oepl/wall.ts). */
export interface WallTagSource {
  readonly id: string;
  readonly hw: string;
  readonly transfers: number;
  screen(): { readonly image: IndexImage; readonly ver: string } | null;
  /** A label of several pages (docs/PAGES.md): the page it shows and how many it holds. */
  readonly page?: number;
  pages?(): number;
}

export interface WallStation {
  readonly key: { readonly tenantId: number; readonly sn: string };
  readonly channel: number;
  readonly isConnected: boolean;
  readonly tags: ReadonlyMap<string, WallTagSource>;
  /** Jobs held, for the "pending" / "sending" badges. */
  readonly queue: ReadonlyMap<
    string,
    { readonly job: { readonly kind: string; readonly tag?: string }; readonly running: boolean }
  >;
  /** Presses a tag's button (docs/PAGES.md): it shows its next page. */
  pressButton?(id: string): boolean;
}

export interface WallOptions {
  /** 0: any free port. */
  port: number;
  host?: string;
  /** How often the page fetches the wall again, ms (default 2000). */
  refreshMs?: number;
}

export interface WallServer {
  /** e.g. http://127.0.0.1:8090/ */
  readonly url: string;
  close(): Promise<void>;
}

/** One tag as /wall.json answers it. */
export interface WallTag {
  id: string;
  hw: string;
  /** The version of its screen (first 16 hex digits of the hash it computed); null: blank. */
  ver: string | null;
  width: number | null;
  height: number | null;
  transfers: number;
  /** An image job for it waits at its station ('pending') or is on the air ('sending'). */
  job: 'pending' | 'sending' | null;
  /** The page it shows of a label of several pages (docs/PAGES.md); 1 otherwise. */
  page: number;
}

export interface WallStationJson {
  tenantId: number;
  sn: string;
  channel: number;
  connected: boolean;
  queue: number;
  tags: WallTag[];
}

const deflate = (data: Uint8Array) => deflateRawSync(data);

/** The wall's data: every station with its tags, in the order the simulator made them. */
export function wallJson(stations: readonly WallStation[]): WallStationJson[] {
  return stations.map((s) => {
    const jobs = new Map<string, 'pending' | 'sending'>();
    for (const held of s.queue.values()) {
      const tag = held.job.tag;
      if (held.job.kind !== 'image' || tag === undefined) continue;
      if (held.running || !jobs.has(tag)) jobs.set(tag, held.running ? 'sending' : 'pending');
    }
    return {
      tenantId: s.key.tenantId,
      sn: s.key.sn,
      channel: s.channel,
      connected: s.isConnected,
      queue: s.queue.size,
      tags: [...s.tags.values()].map((t) => {
        const screen = t.screen();
        return {
          id: t.id,
          hw: t.hw,
          ver: screen?.ver ?? null,
          width: screen?.image.width ?? null,
          // A label of several pages: the height of the page shown (the image stacks them).
          height: screen ? screen.image.height / Math.max(1, t.pages?.() ?? 1) : null,
          transfers: t.transfers,
          job: jobs.get(t.id) ?? null,
          page: t.page ?? 1,
        };
      }),
    };
  });
}

const PAGE = (refreshMs: number) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Store wall · ESL simulator</title>
<style>
  body { font: 13px system-ui, sans-serif; margin: 16px; background: #f3f3f1; color: #222; }
  h1 { font-size: 18px; margin: 0 0 4px; }
  h2 { font-size: 14px; margin: 20px 0 8px; }
  .off { color: #b00; }
  .grid { display: flex; flex-wrap: wrap; gap: 12px; }
  figure { margin: 0; background: #fff; border: 1px solid #ddd; border-radius: 4px; padding: 6px; }
  figure img, figure .blank { display: block; image-rendering: pixelated; border: 1px solid #bbb; }
  figure .blank { width: 120px; height: 60px; background: repeating-linear-gradient(45deg, #eee 0 6px, #fafafa 6px 12px); }
  figcaption { font: 11px ui-monospace, monospace; margin-top: 4px; }
  .badge { display: inline-block; padding: 0 4px; border-radius: 3px; background: #fd4; margin-left: 4px; }
  .badge.sending { background: #8cf; }
</style>
</head>
<body>
<h1>Store wall</h1>
<div id="summary">loading…</div>
<div id="wall"></div>
<script>
const wall = document.getElementById('wall');
const summary = document.getElementById('summary');
const figures = new Map();
function figure(tag) {
  let f = figures.get(tag.id);
  if (!f) {
    f = document.createElement('figure');
    f.dataset.tag = tag.id;
    f.innerHTML = '<div class="blank"></div><figcaption></figcaption>';
    figures.set(tag.id, f);
  }
  if (f.dataset.ver !== tag.ver + '/' + tag.page) {
    f.dataset.ver = tag.ver + '/' + tag.page;
    const old = f.firstElementChild;
    let next;
    if (tag.ver) {
      next = document.createElement('img');
      next.src = '/screen/' + tag.id + '.png?v=' + tag.ver + '&p=' + tag.page;
      next.alt = tag.id;
      next.loading = 'lazy';
      next.width = tag.width;
      next.height = tag.height;
    } else {
      next = document.createElement('div');
      next.className = 'blank';
    }
    f.replaceChild(next, old);
  }
  const caption = f.lastElementChild;
  caption.textContent = tag.id + ' · ' + (tag.ver ?? 'no picture');
  if (tag.job) {
    const b = document.createElement('span');
    b.className = 'badge ' + tag.job;
    b.textContent = tag.job;
    caption.appendChild(b);
  }
  return f;
}
async function refresh() {
  try {
    const stations = await (await fetch('/wall.json', { cache: 'no-store' })).json();
    let tags = 0, shown = 0;
    const sections = stations.map((s) => {
      const section = document.createElement('section');
      const h = document.createElement('h2');
      h.textContent = s.tenantId + '.' + s.sn + ' · channel ' + s.channel + ' · ' + s.tags.length + ' tags · queue ' + s.queue;
      if (!s.connected) { h.className = 'off'; h.textContent += ' · offline'; }
      const grid = document.createElement('div');
      grid.className = 'grid';
      for (const t of s.tags) { tags++; if (t.ver) shown++; grid.appendChild(figure(t)); }
      section.append(h, grid);
      return section;
    });
    wall.replaceChildren(...sections);
    summary.textContent = stations.length + ' stations, ' + tags + ' tags, ' + shown + ' showing a picture · ' + new Date().toLocaleTimeString();
  } catch (e) {
    summary.textContent = 'the simulator does not answer (' + e + ')';
  }
}
refresh();
setInterval(refresh, ${refreshMs});
</script>
</body>
</html>
`;

/**
 * Serves the store wall: `/` the page (it fetches `/wall.json` every `refreshMs` and swaps the
 * pictures whose version changed), `/wall.json` the stations and tags, `/screen/{tag}.png` a
 * tag's screen as a palette PNG of its decoded image (404 while it shows nothing). PNGs are kept
 * per tag and version, so a refresh encodes only what changed.
 */
export async function startWall(stations: readonly WallStation[], options: WallOptions): Promise<WallServer> {
  const page = PAGE(options.refreshMs ?? 2000);
  const pngs = new Map<string, { ver: string; png: Buffer }>();
  const findTag = (id: string): WallTagSource | undefined => {
    for (const s of stations) {
      const t = s.tags.get(id);
      if (t) return t;
    }
    return undefined;
  };
  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer) => {
    res.writeHead(status, {
      'content-type': type,
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://wall').pathname;
    const button = /^\/button\/([0-9A-F]{8,16})$/.exec(path);
    if (button && req.method === 'POST') {
      // A press of a tag's button (docs/PAGES.md): its next page, back to page 1 after its stay.
      const station = stations.find((s) => s.tags.has(button[1]));
      if (!station?.pressButton) return send(res, 404, 'text/plain', 'no such tag\n');
      return send(res, 200, 'application/json', JSON.stringify({ switched: station.pressButton(button[1]) }));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only\n');
    if (path === '/') return send(res, 200, 'text/html; charset=utf-8', page);
    if (path === '/wall.json') return send(res, 200, 'application/json', JSON.stringify(wallJson(stations)));
    const m = /^\/screen\/([0-9A-F]{8,16})\.png$/.exec(path);
    if (m) {
      const tag = findTag(m[1]);
      const screen = tag?.screen();
      if (!tag || !screen) return send(res, 404, 'text/plain', 'no picture\n');
      const pages = tag.pages?.() ?? 1;
      const key = `${screen.ver}/${tag.page ?? 1}`;
      let cached = pngs.get(tag.id);
      if (cached?.ver !== key) {
        const shown = pages > 1 ? pageOfImage(screen.image, pages, tag.page ?? 1) : screen.image;
        const png = indexToPng(shown, { deflate });
        cached = { ver: key, png: Buffer.from(png.buffer, png.byteOffset, png.byteLength) };
        pngs.set(tag.id, cached);
      }
      return send(res, 200, 'image/png', cached.png);
    }
    return send(res, 404, 'text/plain', 'not found\n');
  };
  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      send(res, 500, 'text/plain', `${error instanceof Error ? error.message : error}\n`);
    }
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
