import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddStationData, Station } from '@esl/contract';
import { type Simulator, startSimulator } from '@esl/simulator';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { mqttFromEnv } from '../infra/config';
import { openDatabase } from '../infra/db/database';
import { buildShop } from '../test/business';
import { testDatabases } from '../test/databases';
import { useApp } from '../test/harness';
import { startDelivery } from './wiring';

// The embedded broker's TLS listener (MQTT_TLS_CERT, MQTT_TLS_KEY, MQTT_TLS_PORT): a throwaway
// self-signed certificate made here with the openssl command line, the server configured from
// those variables, a simulated station (programmatic and `npm run sim`) trusting that certificate.

function requireOpenssl(): void {
  try {
    execFileSync('which', ['openssl'], { stdio: 'pipe' });
  } catch {
    throw new Error(
      'this test needs the openssl command line to make a throwaway certificate (apt-get install openssl); it is not skipped',
    );
  }
}

requireOpenssl();
const dir = mkdtempSync(join(tmpdir(), 'esl-tls-'));
const certFile = join(dir, 'cert.pem');
const keyFile = join(dir, 'key.pem');
// An EC key is made in milliseconds; the certificate names the address the stations dial.
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ],
  { stdio: 'pipe' },
);
const cert = readFileSync(certFile, 'utf8');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tlsEnv = {
  HOST: '127.0.0.1',
  MQTT_PORT: '0',
  MQTT_TLS_CERT: certFile,
  MQTT_TLS_KEY: keyFile,
  MQTT_TLS_PORT: '0',
};

describe('MQTT over TLS: configuration', () => {
  it('reads MQTT_TLS_CERT, MQTT_TLS_KEY and MQTT_TLS_PORT (8884 by default), and refuses half a setup', () => {
    expect(mqttFromEnv({ MQTT_TLS_CERT: '/c.pem', MQTT_TLS_KEY: '/k.pem' })).toEqual({
      mode: 'embedded',
      host: '127.0.0.1',
      port: 1884,
      tls: { certFile: '/c.pem', keyFile: '/k.pem', port: 8884 },
    });
    expect(mqttFromEnv(tlsEnv)).toMatchObject({ port: 0, tls: { port: 0 } });
    expect(mqttFromEnv({})).toEqual({ mode: 'embedded', host: '127.0.0.1', port: 1884 });
    expect(() => mqttFromEnv({ MQTT_TLS_CERT: '/c.pem' })).toThrow(/MQTT_TLS_CERT and MQTT_TLS_KEY/);
    expect(() => mqttFromEnv({ MQTT_TLS_PORT: '8884' })).toThrow(/MQTT_TLS_CERT and MQTT_TLS_KEY/);
    expect(() => mqttFromEnv({ ...tlsEnv, MQTT_TLS_PORT: 'tls' })).toThrow(/MQTT_TLS_PORT must be a port/);
    expect(() => mqttFromEnv({ ...tlsEnv, MQTT_URL: 'mqtt://broker:1883' })).toThrow(/external broker does TLS/);
  });

  it('names the variable when the certificate cannot be read or is not one', async () => {
    const database = openDatabase('sqlite::memory:');
    const deps = { db: database.db, notices: {} as never, now: Date.now, log: console, tickMs: 0 };
    try {
      const missing = {
        mode: 'embedded' as const,
        host: '127.0.0.1',
        port: 0,
        tls: { certFile: join(dir, 'none.pem'), keyFile, port: 0 },
      };
      await expect(startDelivery(missing, deps)).rejects.toThrow(/MQTT_TLS_CERT: cannot read .*none\.pem \(ENOENT\)/);
      const garbage = join(dir, 'garbage.pem');
      writeFileSync(garbage, 'not a key');
      const bad = { ...missing, tls: { certFile, keyFile: garbage, port: 0 } };
      await expect(startDelivery(bad, deps)).rejects.toThrow(/not a PEM certificate and its private key/);
    } finally {
      await database.close();
    }
  });
});

describe.each(await testDatabases())('MQTT over TLS on $name', (db) => {
  const mqttConfig = mqttFromEnv(tlsEnv);
  const t = useApp(db, { mqtt: mqttConfig });
  let sim: Simulator | undefined;
  let child: ChildProcess | undefined;
  afterAll(async () => {
    await sim?.stop();
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('a simulated station connects over TLS with the certificate it trusts and comes online', async () => {
    const delivery = t().app.delivery;
    if (!delivery?.tlsUrl) throw new Error('no TLS listener');
    expect(delivery.tlsUrl).toMatch(/^mqtts:\/\/127\.0\.0\.1:\d+$/);
    expect(delivery.url).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
    expect(delivery.tlsUrl).not.toBe(delivery.url.replace('mqtt:', 'mqtts:'));
    const { tokens, tenant } = await buildShop(t().app);
    const token = tokens.admin;
    const add = async (sn: string) => {
      const r = await t().call<AddStationData>('/mgr/ap/add', { sn }, { token });
      expect(r.code, r.msg).toBe(0);
      return r.data;
    };
    const list = async () => (await t().call<Station[]>('/mgr/ap/runtimelist', {}, { token })).data;

    // Without the certificate to trust, the TLS handshake fails: the broker is never reached.
    const tlsStation = await add('TLS-01');
    const untrusted = await mqtt
      .connectAsync(delivery.tlsUrl, {
        clientId: `${tenant.id}.TLS-01`,
        username: `${tenant.id}.TLS-01`,
        password: tlsStation.secret,
        reconnectPeriod: 0,
        connectTimeout: 5000,
      })
      .then(
        async (c) => {
          await c.endAsync(true);
          return 'connected';
        },
        (err: Error) => err.message,
      );
    expect(untrusted).toMatch(/self[- ]signed certificate/);

    sim = await startSimulator({
      url: delivery.tlsUrl,
      ca: cert,
      stations: [{ tenantId: tenant.id, sn: tlsStation.sn, secret: tlsStation.secret, tags: [] }],
      speed: 0,
      seed: 'tls',
      start: t().clock.now(),
    });
    const station = sim.station('TLS-01');
    await sim.waitFor(() => station.isWelcomed, { what: 'welcome over TLS' });
    await vi.waitFor(async () => {
      await delivery.gateway.idle();
      expect((await list()).find((s) => s.sn === 'TLS-01')).toMatchObject({ online: true, firmware: '1.0.0-sim' });
    });

    // `npm run sim -- --url mqtts://… --ca cert.pem`: the command line the same way.
    const cliStation = await add('TLS-02');
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        new URL('../../../simulator/src/cli.ts', import.meta.url).pathname,
        '--url',
        delivery.tlsUrl,
        '--ca',
        certFile,
        '--station',
        `${tenant.id}.${cliStation.sn}:${cliStation.secret}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
    });
    child.stderr?.on('data', (d) => {
      out += d;
    });
    await vi.waitFor(
      async () => {
        expect(child?.exitCode, out).toBeNull();
        await delivery.gateway.idle();
        expect((await list()).find((s) => s.sn === 'TLS-02')?.online, out).toBe(true);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(out).toContain(`[${tenant.id}.TLS-02] connected as ${tenant.id}.TLS-02`);
  });
});
