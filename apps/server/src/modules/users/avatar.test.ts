import type { InfoData } from '@esl/contract';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { declaredSize, imageType } from '../../infra/lib/image';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';
import { AVATAR_SIDE } from './avatar';

function picture(width: number, height: number) {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#c00';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#00c';
  ctx.fillRect(0, 0, width / 2, height / 2);
  return canvas;
}
/** A real PNG with HTML after its end chunk: it decodes, and a browser sniffing it could find a page. */
const PNG = Buffer.concat([picture(64, 48).toBuffer('image/png'), Buffer.from('<html><script>alert(1)</script>')]);
const JPG = picture(600, 300).toBuffer('image/jpeg', 80);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64, 1)]);
const SIGNATURE_THEN_HTML = Buffer.concat([PNG.subarray(0, 8), Buffer.from('<html><script>alert(1)</script></html>')]);
/** A valid 1×1 PNG whose header is patched to declare 60000×60000: a decompression bomb by its header. */
const DECLARED_HUGE = (() => {
  const bomb = Buffer.from(picture(1, 1).toBuffer('image/png'));
  bomb.writeUInt32BE(60_000, 16);
  bomb.writeUInt32BE(60_000, 20);
  return bomb;
})();

function multipart(field: string, filename: string, bytes: Buffer, type = 'image/png') {
  const boundary = '----esl-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('image type by magic bytes', () => {
  it('knows PNG and JPEG and nothing else', () => {
    expect(imageType(PNG)).toBe('image/png');
    expect(imageType(JPG)).toBe('image/jpeg');
    expect(imageType(GIF)).toBeNull();
    expect(imageType(Buffer.alloc(0))).toBeNull();
  });

  it('reads the declared size before decoding', () => {
    expect(declaredSize(PNG, 'image/png')).toEqual({ width: 64, height: 48 });
    expect(declaredSize(JPG, 'image/jpeg')).toEqual({ width: 600, height: 300 });
    expect(declaredSize(DECLARED_HUGE, 'image/png')).toEqual({ width: 60_000, height: 60_000 });
    expect(declaredSize(SIGNATURE_THEN_HTML, 'image/png')).toBeNull();
  });
});

describe.each(await testDatabases())('avatar upload on $name', (db) => {
  const t = useApp(db, { publicUrl: 'https://esl.example.com' });

  async function upload(token: string, field: string, bytes: Buffer, filename = 'me.png') {
    const { payload, headers } = multipart(field, filename, bytes);
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/user/avatar',
      headers: { ...headers, token, 'accept-language': 'en' },
      payload,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { code: number; msg: string; data: { avatar: string } | null };
  }

  it('stores a PNG or JPG, serves it, and /user/info prefixes it with the public address', async () => {
    const { tokens } = await buildWorld(t().app);
    const res = await upload(tokens.clerk, 'file', PNG);
    expect(res.code).toBe(0);
    expect(res.data?.avatar).toMatch(/^https:\/\/esl\.example\.com\/uploads\/avatars\/[0-9a-f]{32}$/);
    const info = await t().call<InfoData>('/user/info', {}, { token: tokens.clerk });
    expect(info.data.avatar).toBe(res.data?.avatar);

    const path = new URL(res.data?.avatar ?? '').pathname;
    const image = await t().app.inject({ method: 'GET', url: path });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    // What is served was drawn again, not the uploaded bytes; the picture is the same.
    expect(image.rawPayload.equals(PNG)).toBe(false);
    expect(image.rawPayload.includes('<script>')).toBe(false);
    const served = await loadImage(image.rawPayload);
    expect([served.width, served.height]).toEqual([64, 48]);

    const jpg = await upload(tokens.clerk, 'file', JPG, 'me.jpg');
    expect(jpg.code).toBe(0);
    expect((await t().app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    const large = await t().app.inject({ method: 'GET', url: new URL(jpg.data?.avatar ?? '').pathname });
    expect(large.headers['content-type']).toBe('image/jpeg');
    const scaled = await loadImage(large.rawPayload);
    expect([scaled.width, scaled.height]).toEqual([AVATAR_SIDE, AVATAR_SIDE / 2]);
    const rows = await t().app.services.db.selectFrom('avatars').select('key').execute();
    expect(rows.filter((r) => jpg.data?.avatar.endsWith(r.key)).length).toBe(1);
  });

  it('refuses other types by content, files over 2 MB, a wrong field and a non-multipart body', async () => {
    const { tokens } = await buildWorld(t().app);
    const gif = await upload(tokens.stock, 'file', GIF, 'looks-like.png');
    expect(gif).toMatchObject({ code: 1009, msg: 'Invalid file: the avatar must be a JPG or PNG image' });
    for (const fake of [
      SIGNATURE_THEN_HTML,
      DECLARED_HUGE,
      Buffer.concat([JPG.subarray(0, 200), Buffer.from('<svg/>')]),
    ]) {
      expect((await upload(tokens.stock, 'file', fake)).code).toBe(1009);
    }
    const big = await upload(tokens.stock, 'file', Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]));
    expect(big).toMatchObject({ code: 1009, msg: 'Invalid file: the avatar cannot exceed 2MB' });
    const field = await upload(tokens.stock, 'picture', PNG);
    expect(field.code).toBe(1009);
    expect((await t().call('/user/avatar', {}, { token: tokens.stock })).code).toBe(1009);
    const info = await t().call<InfoData>('/user/info', {}, { token: tokens.stock });
    expect(info.data.avatar).toBe('');
  });

  it('needs a session', async () => {
    const { payload, headers } = multipart('file', 'me.png', PNG);
    const res = await t().app.inject({ method: 'POST', url: '/api/user/avatar', headers, payload });
    expect(res.json().code).toBe(800);
  });
});
