import { decodePng, encodeTagImage, type IndexImage, indexToRgba } from '@esl/labels';
import { afterEach, describe, expect, it } from 'vitest';
import { Random } from './random';
import { SimTag } from './tag';
import { startWall, type WallServer, type WallStation, type WallStationJson } from './wall';

/** A 250 × 122 black/white/red picture (model 05): stripes whose phase tells pictures apart. */
function picture(phase: number): IndexImage {
  const [width, height] = [250, 122];
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = ((x + y + phase) >> 3) % 3;
  return { width, height, colourType: 'bwr', data };
}
const bytesOf = (image: IndexImage) => encodeTagImage(image, { wext: 6, hexit: 6 }).bytes;

const servers: WallServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('the store wall', () => {
  it('serves every tag’s screen as the tag decoded it, with its id and version, and follows changes', async () => {
    const rng = new Random(7);
    const shown = new SimTag({ id: 'A1B2C3D4E5F6', hw: '05' }, rng.fork('a'));
    const blank = new SimTag({ id: '00000000BEEF', hw: '05' }, rng.fork('b'));
    expect(shown.receive(bytesOf(picture(0)))).toMatchObject({ ok: true });
    const station: WallStation = {
      key: { tenantId: 3, sn: 'AP-01' },
      channel: 11,
      isConnected: true,
      tags: new Map([
        [shown.id, shown],
        [blank.id, blank],
      ]),
      queue: new Map([['j1:1', { job: { kind: 'image', tag: blank.id }, running: false }]]),
    };
    const wall = await startWall([station], { port: 0, refreshMs: 500 });
    servers.push(wall);
    const get = (path: string) => fetch(new URL(path, wall.url));

    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('/wall.json');
    expect(html).toContain('setInterval(refresh, 500)');

    const json = async () => (await (await get('/wall.json')).json()) as WallStationJson[];
    const first = await json();
    expect(first).toEqual([
      {
        tenantId: 3,
        sn: 'AP-01',
        channel: 11,
        connected: true,
        queue: 1,
        tags: [
          { id: shown.id, hw: '05', ver: shown.ver, width: 250, height: 122, transfers: 1, job: null, page: 1 },
          { id: blank.id, hw: '05', ver: null, width: null, height: null, transfers: 0, job: 'pending', page: 1 },
        ],
      },
    ]);
    expect(shown.ver).toMatch(/^[0-9a-f]{16}$/);

    const png = async (id: string) => {
      const res = await get(`/screen/${id}.png`);
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        bytes: new Uint8Array(await res.arrayBuffer()),
      };
    };
    const one = await png(shown.id);
    expect([one.status, one.type]).toEqual([200, 'image/png']);
    const decoded = decodePng(one.bytes);
    expect([decoded.width, decoded.height]).toEqual([250, 122]);
    expect(Buffer.from(decoded.data).equals(Buffer.from(indexToRgba(picture(0))))).toBe(true);
    expect((await png(blank.id)).status).toBe(404);
    expect((await png('FFFFFFFF')).status).toBe(404);
    expect((await get('/nothing')).status).toBe(404);

    // A new picture arrives: a new version, and the PNG follows (not the one kept from before).
    const before = shown.ver;
    shown.receive(bytesOf(picture(5)));
    blank.receive(bytesOf(picture(9)));
    const second = await json();
    expect(second[0].tags.map((t) => t.ver)).toEqual([shown.ver, blank.ver]);
    expect(shown.ver).not.toBe(before);
    const two = decodePng((await png(shown.id)).bytes);
    expect(Buffer.from(two.data).equals(Buffer.from(indexToRgba(picture(5))))).toBe(true);
    expect(decodePng((await png(blank.id)).bytes).width).toBe(250);

    // A reboot loses the picture: the wall shows the tag blank again.
    shown.reboot();
    expect((await json())[0].tags[0]).toMatchObject({ ver: null });
    expect((await png(shown.id)).status).toBe(404);
  });

  it('marks a transfer on the air as sending, and an offline station', async () => {
    const tag = new SimTag({ id: 'A1B2C3D4E5F6', hw: '05' }, new Random(1));
    const station: WallStation = {
      key: { tenantId: 1, sn: 'AP-02' },
      channel: 15,
      isConnected: false,
      tags: new Map([[tag.id, tag]]),
      queue: new Map([
        ['j1:1', { job: { kind: 'image', tag: tag.id }, running: false }],
        ['j2:1', { job: { kind: 'image', tag: tag.id }, running: true }],
        ['j3:1', { job: { kind: 'led', tag: tag.id }, running: true }],
      ]),
    };
    const wall = await startWall([station], { port: 0 });
    servers.push(wall);
    const [s] = (await (await fetch(new URL('/wall.json', wall.url))).json()) as WallStationJson[];
    expect(s).toMatchObject({ connected: false, queue: 3, tags: [{ job: 'sending' }] });
  });
});
