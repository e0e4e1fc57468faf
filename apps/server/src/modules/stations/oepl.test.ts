import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AddStationData, ErrorCode, type Station, type TestStationApData } from '@esl/contract';
import { emuTags, type OeplAp, startOeplAp, VirtualClock } from '@esl/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildShop } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';

// Stations of kind "OpenEPaperLink access point" (issue 24): the address, its checks, the edit
// form's call, and "test connection" against an emulated AP and against things that are not one.

/** A tiny HTTP server answering every request with `status` and `body` (or never, for `hang`). */
async function fakeServer(
  status: number,
  body: string,
  hang = false,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    if (hang) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe.each(await testDatabases())('OpenEPaperLink stations on $name', (db) => {
  const t = useApp(db);
  let clock: VirtualClock;
  let ap: OeplAp;
  beforeAll(async () => {
    clock = new VirtualClock({ speed: 0, start: Date.UTC(2026, 0, 15, 9) });
    ap = await startOeplAp({ clock, tags: emuTags(2), alias: 'Shelf AP' });
  });
  afterAll(async () => {
    await ap?.stop();
    clock?.stop();
  });

  it('adds one with its AP address and no secret; the address must be http(s)://HOST[:PORT]', async () => {
    const { tokens } = await buildShop(t().app);
    const token = tokens.admin;
    const added = await t().call<AddStationData>(
      '/mgr/ap/add',
      { sn: 'oepl-1', name: 'Shelf AP', kind: 'oepl', apUrl: `${ap.url}/` },
      { token },
    );
    expect(added.code, added.msg).toBe(0);
    expect(added.data).toMatchObject({ sn: 'OEPL-1', kind: 'oepl', apUrl: ap.url, secret: '' });
    const list = await t().call<Station[]>('/mgr/ap/runtimelist', {}, { token });
    expect(list.data.find((s) => s.id === added.data.id)).toMatchObject({ kind: 'oepl', apUrl: ap.url });

    for (const [apUrl, msg] of [
      ['ftp://10.0.0.2', "Access point address: must be the access point's address, http://HOST[:PORT]"],
      ['http://10.0.0.2/ui', "Access point address: must be the access point's address, http://HOST[:PORT]"],
      ['http://admin:pw@10.0.0.2', "Access point address: must be the access point's address, http://HOST[:PORT]"],
      [
        'http://169.254.169.254',
        'Access point address: cannot point at a link-local, multicast or other reserved address, or at this server',
      ],
      [
        'http://[fe80::1]:80',
        'Access point address: cannot point at a link-local, multicast or other reserved address, or at this server',
      ],
    ] as const) {
      const res = await t().call('/mgr/ap/add', { sn: 'OEPL-BAD', kind: 'oepl', apUrl }, { token });
      expect(res, apUrl).toMatchObject({ code: ErrorCode.VALIDATION, msg });
    }
    const zh = await t().call(
      '/mgr/ap/add',
      { sn: 'OEPL-BAD', kind: 'oepl', apUrl: 'ftp://x' },
      { token, lang: 'zh-CN' },
    );
    expect(zh.msg).toBe('接入点地址：应为接入点地址，形如 http://主机[:端口]');
    // Required for this kind; not taken for a station that speaks the protocol itself.
    expect((await t().call('/mgr/ap/add', { sn: 'OEPL-BAD', kind: 'oepl' }, { token })).code).toBe(
      ErrorCode.VALIDATION,
    );
    expect((await t().call('/mgr/ap/add', { sn: 'ST-1', apUrl: ap.url }, { token })).code).toBe(ErrorCode.VALIDATION);
    // The server holds its secret: no renewal through the console.
    const renew = await t().call('/mgr/ap/renewsecret', { id: added.data.id }, { token });
    expect(renew.code).toBe(ErrorCode.VALIDATION);
    expect(renew.msg).toContain('not for this kind of base station');
  });

  it('edits the name and, for this kind only, the address', async () => {
    const { tokens, otherStoreAdmin } = await buildShop(t().app);
    const token = tokens.admin;
    const oepl = await t().call<AddStationData>(
      '/mgr/ap/add',
      { sn: 'OEPL-2', kind: 'oepl', apUrl: ap.url },
      { token },
    );
    const plain = await t().call<AddStationData>('/mgr/ap/add', { sn: 'PLAIN-2' }, { token });
    const edited = await t().call<Station>(
      '/mgr/ap/edit',
      { id: oepl.data.id, name: 'Back room', apUrl: 'http://192.168.50.2:8080' },
      { token },
    );
    expect(edited.code, edited.msg).toBe(0);
    expect(edited.data).toMatchObject({ name: 'Back room', apUrl: 'http://192.168.50.2:8080', kind: 'oepl' });
    const wrongKind = await t().call('/mgr/ap/edit', { id: plain.data.id, apUrl: 'http://192.168.50.2' }, { token });
    expect(wrongKind.code).toBe(ErrorCode.VALIDATION);
    expect((await t().call<Station>('/mgr/ap/edit', { id: plain.data.id, name: 'Till' }, { token })).data.name).toBe(
      'Till',
    );
    // Another store's admin does not see it.
    const other = await t().call('/mgr/ap/edit', { id: oepl.data.id, name: 'x' }, { token: otherStoreAdmin });
    expect(other.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('test connection: says what it found at an AP, and why anything else is not one', async () => {
    const { tokens } = await buildShop(t().app);
    const token = tokens.admin;
    const test = async (apUrl: string) => {
      const res = await t().call<TestStationApData>('/mgr/ap/testap', { apUrl }, { token });
      expect(res.code, res.msg).toBe(0);
      return res.data;
    };
    expect(await test(ap.url)).toMatchObject({
      ok: true,
      failure: null,
      firmware: '2.85',
      env: 'emulator',
      alias: 'Shelf AP',
      apUrl: ap.url,
    });

    const notFound = await fakeServer(404, 'no');
    const notJson = await fakeServer(200, '<html>router</html>');
    const otherJson = await fakeServer(200, '{"hello":"world"}');
    const silent = await fakeServer(200, '', true);
    try {
      expect(await test(notFound.url)).toMatchObject({ ok: false, failure: 'http', status: 404 });
      expect(await test(notJson.url)).toMatchObject({ ok: false, failure: 'notOepl', alias: '', firmware: '' });
      expect(await test(otherJson.url)).toMatchObject({ ok: false, failure: 'notOepl' });
      const slow = await test(silent.url);
      expect(slow).toMatchObject({ ok: false, failure: 'timeout' });
    } finally {
      await Promise.all([notFound.close(), notJson.close(), otherJson.close(), silent.close()]);
    }
    // A closed port, a reserved address (never connected to), a name that does not resolve.
    expect(await test(notFound.url)).toMatchObject({ ok: false, failure: 'refused' });
    expect(await test('http://169.254.169.254')).toMatchObject({ ok: false, failure: 'address' });
    expect(await test('http://no-such-ap.invalid')).toMatchObject({ ok: false, failure: 'unresolved' });
    // Checked like a station edit: a clerk may not; a bad address is refused before anything is sent.
    expect((await t().call('/mgr/ap/testap', { apUrl: ap.url }, { token: tokens.clerk })).code).toBe(
      ErrorCode.FORBIDDEN,
    );
    expect((await t().call('/mgr/ap/testap', { apUrl: 'file:///etc/passwd' }, { token })).code).toBe(
      ErrorCode.VALIDATION,
    );
  });
});
