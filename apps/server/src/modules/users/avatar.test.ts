import type { InfoData } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases';
import { buildWorld } from '../../test/factories';
import { useApp } from '../../test/harness';
import { imageType } from './avatar';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 3)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64, 1)]);

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
    expect(image.rawPayload.equals(PNG)).toBe(true);

    const jpg = await upload(tokens.clerk, 'file', JPG, 'me.jpg');
    expect(jpg.code).toBe(0);
    expect((await t().app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    const rows = await t().app.services.db.selectFrom('avatars').select('key').execute();
    expect(rows.filter((r) => jpg.data?.avatar.endsWith(r.key)).length).toBe(1);
  });

  it('refuses other types by content, files over 2 MB, a wrong field and a non-multipart body', async () => {
    const { tokens } = await buildWorld(t().app);
    const gif = await upload(tokens.stock, 'file', GIF, 'looks-like.png');
    expect(gif).toMatchObject({ code: 1009, msg: 'Invalid file: the avatar must be a JPG or PNG image' });
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
