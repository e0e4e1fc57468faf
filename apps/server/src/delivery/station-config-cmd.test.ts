import { type AddStationData, describeTarget, ErrorCode, type Station } from '@esl/contract';
import { type Simulator, startSimulator } from '@esl/simulator';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { buildShop } from '../test/business';
import { testDatabases } from '../test/databases';
import { login } from '../test/factories';
import { useApp } from '../test/harness';

// Desired configuration and the command window, end to end: the console's calls on the real
// server, the embedded broker, and a simulated station that applies config and runs commands.

const WIFI_PASSWORD = 'very-secret-wifi-pw';

/** Every notice a socket receives, parsed. */
function collect(ws: WebSocket): Array<Record<string, unknown>> {
  const seen: Array<Record<string, unknown>> = [];
  ws.on('message', (data) => {
    const text = data.toString();
    if (text.startsWith('{')) seen.push(JSON.parse(text) as Record<string, unknown>);
  });
  return seen;
}

describe.each(await testDatabases())('station configuration and command window ($name)', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
  let sim: Simulator | undefined;
  afterAll(async () => {
    await sim?.stop();
  });

  it('sends the desired config with a revision, shows it pending then applied, never answers the WiFi password', async () => {
    const { tokens, tenant } = await buildShop(t().app);
    const token = tokens.admin;
    const added = await t().call<AddStationData>('/mgr/ap/add', { sn: 'CFG-1' }, { token });
    expect(added.code, added.msg).toBe(0);
    const list = async () => (await t().call<Station[]>('/mgr/ap/runtimelist', {}, { token })).data[0];
    expect(await list()).toMatchObject({ configRev: 0, configState: 'none', config: { wifiPasswordSet: false } });

    // Set while the station is offline: stored, pending, sent at its hello.
    const config = {
      wifiSsid: 'shop-wifi',
      wifiPassword: WIFI_PASSWORD,
      ntpServers: ['ntp.example.com'],
      serverHost: 'mqtt.example.com',
      serverPort: 1884,
      heartbeatS: 30,
      reportS: 20,
    };
    const set = await t().call('/mgr/ap/setconfig', { id: added.data.id, config }, { token });
    expect(set).toMatchObject({ code: 0, data: { id: added.data.id, configRev: 1, sent: false } });
    const pending = await list();
    expect(pending).toMatchObject({
      configRev: 1,
      configAppliedRev: null,
      configState: 'pending',
      serverAddress: 'mqtt.example.com',
      serverPort: 1884,
      config: { wifiSsid: 'shop-wifi', wifiPasswordSet: true, ipMode: 'dhcp', heartbeatS: 30, reportS: 20 },
    });
    expect(JSON.stringify(pending)).not.toContain(WIFI_PASSWORD);
    // The same configuration again keeps its revision.
    const same = await t().call('/mgr/ap/setconfig', { id: added.data.id, config }, { token });
    expect(same).toMatchObject({ code: 0, data: { configRev: 1 } });

    const delivery = t().app.delivery;
    if (!delivery) throw new Error('no broker');
    sim = await startSimulator({
      url: delivery.url,
      stations: [{ tenantId: tenant.id, sn: 'CFG-1', secret: added.data.secret, tags: [] }],
      speed: 0,
      seed: 'config',
      start: t().clock.now(),
    });
    const station = sim.station('CFG-1');
    await vi.waitFor(async () => {
      await delivery.gateway.idle();
      expect(await list()).toMatchObject({ online: true, configAppliedRev: 1, configState: 'applied' });
    });
    expect(station.cfgRev).toBe(1);
    expect(station.heartbeatS).toBe(30);
    expect(station.config).toMatchObject({ wifi: { ssid: 'shop-wifi' }, ntp: ['ntp.example.com'] });
    expect(JSON.stringify(station.config)).not.toContain(WIFI_PASSWORD);
    // The server now expects the configured heartbeat.
    const row = await t()
      .app.services.db.selectFrom('stations')
      .select(['heartbeat_s', 'wifi_password'])
      .where('id', '=', added.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ heartbeat_s: 30, wifi_password: WIFI_PASSWORD });

    // Changed while online: sent at once; the password left out stays as it was.
    const { wifiPassword: _, ...withoutPassword } = config;
    const changed = await t().call(
      '/mgr/ap/setconfig',
      { id: added.data.id, config: { ...withoutPassword, reportS: 15 } },
      { token },
    );
    expect(changed).toMatchObject({ code: 0, data: { configRev: 2, sent: true } });
    await vi.waitFor(async () => {
      await delivery.gateway.idle();
      expect(await list()).toMatchObject({ configRev: 2, configAppliedRev: 2, configState: 'applied' });
    });
    expect(station.reportS).toBe(15);
    expect((await list()).config.wifiPasswordSet).toBe(true);

    // A static address needs its address, mask and gateway.
    const bad = await t().call(
      '/mgr/ap/setconfig',
      { id: added.data.id, config: { ...withoutPassword, ipMode: 'static', ip: '10.0.0.5' } },
      { token, lang: 'en' },
    );
    expect(bad).toMatchObject({ code: ErrorCode.VALIDATION });

    // Nothing the server logged or answered carries the password.
    const ops = await t().app.services.db.selectFrom('op_logs').selectAll().execute();
    expect(JSON.stringify(ops)).not.toContain(WIFI_PASSWORD);
    const sys = await t().app.services.db.selectFrom('sys_logs').selectAll().execute();
    expect(JSON.stringify(sys)).not.toContain(WIFI_PASSWORD);
    await sim.stop();
    sim = undefined;
  });

  it('runs allowed command lines on the station, streams the output to the opener only, logs every line', async () => {
    const { tokens, tenant, store, users } = await buildShop(t().app);
    const opener = tokens.manager;
    const added = await t().call<AddStationData>('/mgr/ap/add', { sn: 'CMD-1' }, { token: tokens.admin });
    expect(added.code, added.msg).toBe(0);
    const offline = await t().call('/mgr/ap/opencmdwindow', { id: added.data.id }, { token: opener, lang: 'en' });
    expect(offline).toMatchObject({ code: ErrorCode.VALIDATION, msg: 'ID: the base station is offline' });

    const delivery = t().app.delivery;
    if (!delivery) throw new Error('no broker');
    sim = await startSimulator({
      url: delivery.url,
      stations: [{ tenantId: tenant.id, sn: 'CMD-1', secret: added.data.secret, tags: [] }],
      speed: 0,
      seed: 'cmd',
      start: t().clock.now(),
    });
    await sim.waitFor(() => sim?.station('CMD-1').isWelcomed ?? false, { what: 'welcome' });
    await delivery.gateway.idle();

    // Two consoles of the same tenant: the opener's, and another user's (a second session of the manager too).
    const mine = await t().app.injectWS(`/sys/eslnotice?token=${opener}`);
    const otherUser = await t().app.injectWS(`/sys/eslnotice?token=${tokens.admin}`);
    const sameUserOtherSession = await t().app.injectWS(
      `/sys/eslnotice?token=${await login(t().app, users.manager.username)}`,
    );
    const seenMine = collect(mine);
    const seenOther = collect(otherUser);
    const seenSameUser = collect(sameUserOtherSession);
    // The sockets register after their session is read.
    await vi.waitFor(() => expect(t().app.services.notices.size).toBeGreaterThanOrEqual(3));

    const open = await t().call<{ session: string; commands: string[] }>(
      '/mgr/ap/opencmdwindow',
      { id: added.data.id },
      { token: opener },
    );
    expect(open.code, open.msg).toBe(0);
    expect(open.data.commands).toEqual(['status', 'ping', 'scan', 'channel', 'log tail', 'reboot']);
    const { session } = open.data;

    const status = await t().call('/mgr/ap/cmd', { id: added.data.id, session, line: 'status' }, { token: opener });
    expect(status.code, status.msg).toBe(0);
    await vi.waitFor(async () => {
      await delivery.gateway.idle();
      expect(seenMine.find((n) => n.type === 'station.cmd')).toMatchObject({
        type: 'station.cmd',
        id: added.data.id,
        session,
        exit: 0,
        out: expect.stringMatching(/^uptime \d+ s, queue 0 jobs/),
      });
    });

    // Refused: a command outside the allow-list, and someone else using the opener's session.
    const refused = await t().call(
      '/mgr/ap/cmd',
      { id: added.data.id, session, line: 'rm -rf /' },
      { token: opener, lang: 'zh-CN' },
    );
    expect(refused.code).toBe(ErrorCode.VALIDATION);
    expect(refused.msg).toContain('不是允许的基站命令');
    const stolen = await t().call(
      '/mgr/ap/cmd',
      { id: added.data.id, session, line: 'reboot' },
      { token: tokens.admin, lang: 'en' },
    );
    expect(stolen).toMatchObject({
      code: ErrorCode.VALIDATION,
      msg: 'Session: the command window is closed, open it again',
    });
    const logTail = await t().call(
      '/mgr/ap/cmd',
      { id: added.data.id, session, line: 'log tail 5', close: true },
      { token: opener },
    );
    expect(logTail.code, logTail.msg).toBe(0);
    await vi.waitFor(async () => {
      await delivery.gateway.idle();
      expect(seenMine.filter((n) => n.type === 'station.cmd').map((n) => n.seq)).toEqual([0, 1]);
    });
    // The station never saw the refused lines; its log shows the allowed ones.
    const stationLog = sim.station('CMD-1').logLines.join('\n');
    expect(stationLog).toContain('cmd: status');
    expect(stationLog).not.toContain('rm -rf');
    expect(stationLog).not.toContain('cmd: reboot');
    // Closed: no more lines.
    const afterClose = await t().call('/mgr/ap/cmd', { id: added.data.id, session, line: 'ping' }, { token: opener });
    expect(afterClose.code).toBe(ErrorCode.VALIDATION);

    // A notice to every console arrives after any output would have: the others saw none.
    t().app.services.notices.broadcast(tenant.id, { type: 'sentinel' });
    await vi.waitFor(() => {
      expect(seenOther.some((n) => n.type === 'sentinel')).toBe(true);
      expect(seenSameUser.some((n) => n.type === 'sentinel')).toBe(true);
    });
    expect(seenOther.filter((n) => n.type === 'station.cmd')).toEqual([]);
    expect(seenSameUser.filter((n) => n.type === 'station.cmd')).toEqual([]);

    const ops = await t()
      .app.services.db.selectFrom('op_logs')
      .select(['call', 'code', 'target', 'store_id'])
      .where('tenant_id', '=', tenant.id)
      .where('call', 'in', ['/mgr/ap/cmd', '/mgr/ap/opencmdwindow'])
      .orderBy('id')
      .execute();
    expect(ops.map((o) => [o.call, o.code, describeTarget(o.target, 'en'), o.store_id])).toEqual([
      ['/mgr/ap/opencmdwindow', ErrorCode.VALIDATION, 'base station CMD-1', store.id],
      ['/mgr/ap/opencmdwindow', 0, 'base station CMD-1', store.id],
      ['/mgr/ap/cmd', 0, 'base station CMD-1 command: status', store.id],
      ['/mgr/ap/cmd', ErrorCode.VALIDATION, 'base station CMD-1 command: rm -rf /', store.id],
      ['/mgr/ap/cmd', ErrorCode.VALIDATION, 'base station CMD-1 command: reboot', store.id],
      ['/mgr/ap/cmd', 0, 'base station CMD-1 command: log tail 5', store.id],
      ['/mgr/ap/cmd', ErrorCode.VALIDATION, 'base station CMD-1 command: ping', store.id],
    ]);
    for (const ws of [mine, otherUser, sameUserOtherSession]) ws.terminate();
  });
});
