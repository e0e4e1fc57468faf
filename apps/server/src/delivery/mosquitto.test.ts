import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { AddStationData, RenewStationSecretData, Station } from '@esl/contract';
import { stationUsername, topics } from '@esl/contract/protocol';
import { type Simulator, startSimulator } from '@esl/simulator';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildShop } from '../test/business';
import { testDatabases } from '../test/databases';
import { useApp } from '../test/harness';
import { connectDynsec } from './dynsec';

// The server as a client of a test-owned Mosquitto with the dynamic-security plugin
// (docs/MOSQUITTO.md): station accounts written there by the server, the simulator connecting
// through it. Skipped when Mosquitto or its plugin is not installed.

const PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';
const have = (() => {
  try {
    execFileSync('mosquitto', ['-h'], { stdio: 'ignore' });
  } catch (err) {
    // `mosquitto -h` exits non-zero after printing its usage: it is there unless it was not found.
    if ((err as { code?: string }).code === 'ENOENT') return false;
  }
  try {
    execFileSync('mosquitto_ctrl', ['--help'], { stdio: 'ignore' });
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return false;
  }
  return existsSync(PLUGIN);
})();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function listening(port: number): Promise<void> {
  await vi.waitFor(
    () =>
      new Promise<void>((resolve, reject) => {
        const c = createConnection({ port, host: '127.0.0.1' }, () => {
          c.destroy();
          resolve();
        });
        c.once('error', reject);
      }),
    { timeout: 10_000, interval: 50 },
  );
}

const ADMIN = { username: 'dynsec-admin', password: 'admin-secret-1' };
const SERVER = { username: 'esl-server', password: 'server-secret-1' };
let dir = '';
let broker: ChildProcess | undefined;
let url = '';
const [sqlite] = await testDatabases();

describe.runIf(have)('on a test-owned Mosquitto with dynamic security', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'esl-mosquitto-'));
    const port = await freePort();
    url = `mqtt://127.0.0.1:${port}`;
    execFileSync('mosquitto_ctrl', ['dynsec', 'init', join(dir, 'dynsec.json'), ADMIN.username, ADMIN.password], {
      stdio: 'ignore',
    });
    writeFileSync(
      join(dir, 'mosquitto.conf'),
      [
        `listener ${port} 127.0.0.1`,
        'allow_anonymous false',
        'persistence false',
        // Started as root, Mosquitto would drop to its own user, who cannot read this test's files.
        `user ${userInfo().username}`,
        `plugin ${PLUGIN}`,
        `plugin_opt_config_file ${join(dir, 'dynsec.json')}`,
        '',
      ].join('\n'),
    );
    broker = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
    await listening(port);
    // The server's own account (docs/MOSQUITTO.md, step 2).
    const admin = await connectDynsec({ url, ...ADMIN, clientId: 'test-setup' });
    const answers = await admin.run([
      {
        command: 'createRole',
        rolename: 'esl-server',
        acls: [
          { acltype: 'publishClientSend', topic: 'esl/v1/#', allow: true },
          { acltype: 'subscribePattern', topic: 'esl/v1/#', allow: true },
          // Mosquitto checks a shared subscription with its `$share/{group}/` prefix.
          { acltype: 'subscribePattern', topic: '$share/esl/esl/v1/#', allow: true },
          { acltype: 'publishClientReceive', topic: 'esl/v1/#', allow: true },
        ],
      },
      { command: 'createClient', ...SERVER, roles: [{ rolename: 'esl-server' }] },
    ]);
    expect(answers.filter((a) => a.error)).toEqual([]);
    await admin.close();
  });
  afterAll(() => {
    if (broker?.pid) process.kill(broker.pid, 'SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe('server on SQLite', () => {
    // The URL is known only once Mosquitto runs: read it lazily through a getter.
    const mqttConfig = {
      mode: 'external' as const,
      get url() {
        return url;
      },
      ...SERVER,
      adminUsername: ADMIN.username,
      adminPassword: ADMIN.password,
      instanceId: 'test',
    };
    const t = useApp(sqlite, { mqtt: mqttConfig });
    let sim: Simulator | undefined;
    afterAll(async () => {
      await sim?.stop();
    });

    it('writes station accounts there; the simulator connects, reports, and goes offline; renewing ends the old secret', async () => {
      const { tokens, tenant } = await buildShop(t().app);
      const token = tokens.admin;
      const added = await t().call<AddStationData>('/mgr/ap/add', { sn: 'MQ-1' }, { token });
      expect(added.code, added.msg).toBe(0);
      const key = { tenantId: tenant.id, sn: 'MQ-1' };
      const user = stationUsername(key);

      // Wrong secret, or its username under another client id: refused by Mosquitto itself.
      for (const [password, clientId] of [
        ['wrong', user],
        [added.data.secret, `${tenant.id}.OTHER`],
      ]) {
        await expect(
          mqtt.connectAsync(url, { username: user, password, clientId, reconnectPeriod: 0, connectTimeout: 5000 }),
        ).rejects.toThrow();
      }

      sim = await startSimulator({
        url,
        stations: [{ ...key, secret: added.data.secret }],
        speed: 0,
        seed: 'mosquitto',
        start: t().clock.now(),
      });
      const station = sim.station('MQ-1');
      await sim.waitFor(() => station.isWelcomed, { what: 'welcome through Mosquitto' });
      const list = async () => (await t().call<Station[]>('/mgr/ap/runtimelist', {}, { token })).data[0];
      expect(await list()).toMatchObject({ online: true, firmware: '1.0.0-sim' });
      await sim.clock.advance(60_000);
      await vi.waitFor(async () => expect((await list()).uptimeS).toBe(60));

      await station.disconnect({ abrupt: true });
      await vi.waitFor(async () => expect((await list()).online).toBe(false));

      // The station's role: its own down/ only.
      const probe = await mqtt.connectAsync(url, {
        username: user,
        password: added.data.secret,
        clientId: user,
        reconnectPeriod: 0,
      });
      const granted = await probe
        .subscribeAsync(topics.downFilter({ tenantId: tenant.id, sn: 'OTHER' }), { qos: 1 })
        .then((g) => g.map((x) => x.qos))
        .catch((err: { packet?: { granted?: number[] } }) => err.packet?.granted ?? []);
      expect(granted).toEqual([128]);
      await probe.endAsync(true);

      // MQTT 5 on Mosquitto (PROTOCOL.md §2): the same login and ACL; its own down/# granted,
      // another station's refused (reason code 0x87, not authorised).
      const five = await mqtt.connectAsync(url, {
        username: user,
        password: added.data.secret,
        clientId: user,
        protocolVersion: 5,
        reconnectPeriod: 0,
        connectTimeout: 5000,
      });
      const codes = async (filter: string) =>
        five
          .subscribeAsync(filter, { qos: 1 })
          .then((g) => g.map((x) => x.qos))
          .catch((err: { packet?: { granted?: number[] } }) => err.packet?.granted ?? []);
      expect(await codes(topics.downFilter({ tenantId: tenant.id, sn: key.sn }))).toEqual([1]);
      expect((await codes(topics.downFilter({ tenantId: tenant.id, sn: 'OTHER' })))[0]).toBeGreaterThanOrEqual(128);
      await five.endAsync(true);

      const renewed = await t().call<RenewStationSecretData>('/mgr/ap/renewsecret', { id: added.data.id }, { token });
      expect(renewed.code, renewed.msg).toBe(0);
      await expect(
        mqtt.connectAsync(url, {
          username: user,
          password: added.data.secret,
          clientId: user,
          reconnectPeriod: 0,
          connectTimeout: 5000,
        }),
      ).rejects.toThrow();
      const fresh = await mqtt.connectAsync(url, {
        username: user,
        password: renewed.data.secret,
        clientId: user,
        reconnectPeriod: 0,
      });
      expect(fresh.connected).toBe(true);
      await fresh.endAsync(true);
    });
  });
});
