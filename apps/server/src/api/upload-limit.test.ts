import { request } from 'node:http';
import { AVATAR_MAX_BYTES, CALLS, ErrorCode, FONT_UPLOAD_MAX_BYTES, PRODUCT_IMPORT_MAX_BYTES } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { buildShop, multipartFile } from '../test/business';
import { testDatabases } from '../test/databases';
import { useApp } from '../test/harness';
import { MULTIPART_SLACK_BYTES } from './register';

// Issue 25 item 5: an upload over its call's limit is refused as it arrives. The client below
// announces 65 MB and sends only the first megabyte: the answer can only come if the server
// answered without waiting for (or reading) the rest.
const [sqlite] = await testDatabases();

interface Answer {
  status: number;
  body: { code: number; msg: string; data: unknown };
  connection: string | undefined;
  sent: number;
}

function announceAndStall(port: number, path: string, token: string, announced: number, lang: string) {
  return new Promise<Answer>((resolve, reject) => {
    let sent = 0;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api${path}`,
        headers: {
          token,
          'accept-language': lang,
          'content-type': 'multipart/form-data; boundary=----x',
          'content-length': String(announced),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString()),
            connection: res.headers.connection,
            sent,
          });
          req.destroy();
        });
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let i = 0; i < 16; i++) {
      req.write(chunk);
      sent += chunk.length;
    }
    // Nothing more is sent: the request stays open until the server answers.
  });
}

describe('uploads over their limit', () => {
  const t = useApp(sqlite);

  it('every multipart call declares its limit', () => {
    expect(CALLS.avatar.upload).toBe(AVATAR_MAX_BYTES);
    for (const name of ['importProducts', 'inspectImport', 'importMapped'] as const) {
      expect(CALLS[name].upload, name).toBe(PRODUCT_IMPORT_MAX_BYTES);
    }
    expect(CALLS.uploadFirmware.upload).toBeGreaterThan(0);
    expect(CALLS.uploadFont.upload).toBe(FONT_UPLOAD_MAX_BYTES);
  });

  it('are answered 1014 before the body is read, and the connection is closed', async () => {
    const { app } = t();
    const shop = await buildShop(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const a = await announceAndStall(
      address.port,
      CALLS.importProducts.path,
      shop.tokens.admin,
      65 * 1024 * 1024,
      'zh-CN',
    );
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ code: ErrorCode.TOO_LARGE, msg: '请求过大，上限为 64 MB', data: null });
    expect(a.connection).toBe('close');
    const avatar = await announceAndStall(
      address.port,
      CALLS.avatar.path,
      shop.tokens.clerk,
      AVATAR_MAX_BYTES + MULTIPART_SLACK_BYTES + 1,
      'en',
    );
    expect(avatar.body).toEqual({ code: ErrorCode.TOO_LARGE, msg: 'Request too large: the limit is 2 MB', data: null });
  });

  it('within the limit, the upload is read as before', async () => {
    const { app } = t();
    const shop = await buildShop(app);
    const file = multipartFile('a.csv', Buffer.from('条码,名称,价格\n6900000000017,苹果,3.50\n'));
    const res = await app.inject({
      method: 'POST',
      url: `/api${CALLS.importProducts.path}`,
      headers: { ...file.headers, token: shop.tokens.admin, 'accept-language': 'en' },
      payload: file.payload,
    });
    expect(res.json()).toMatchObject({ code: 0, data: { inserted: 1 } });
  });
});
