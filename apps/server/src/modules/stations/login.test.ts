import type { AddStationData, RenewStationSecretData } from '@esl/contract';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { mqttFromEnv, mqttPublicUrlsFromEnv } from '../../infra/config';
import { buildShop } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';
import { stationLogin } from './login';

const key = { tenantId: 7, sn: 'AP-01' };
const embedded = { url: 'mqtt://127.0.0.1:1884', tlsUrl: null, anyHost: false, publicUrls: [] };

describe('where a station logs in', () => {
  it('names the listener, the TLS one, the user name, and whether only this machine reaches it', () => {
    expect(stationLogin(embedded, 'esl.shop.lan', key)).toEqual({
      address: '127.0.0.1:1884',
      tlsAddress: null,
      username: '7.AP-01',
      localOnly: true,
    });
    // Listening on every address: the host the console reached the server by.
    const everywhere = { ...embedded, tlsUrl: 'mqtts://127.0.0.1:8884', anyHost: true };
    expect(stationLogin(everywhere, 'esl.shop.lan', key)).toEqual({
      address: 'esl.shop.lan:1884',
      tlsAddress: 'esl.shop.lan:8884',
      username: '7.AP-01',
      localOnly: false,
    });
    expect(stationLogin(everywhere, '[fd00::5]', key).address).toBe('[fd00::5]:1884');
    expect(stationLogin(everywhere, 'localhost', key).localOnly).toBe(true);
    // On one address: that address, whatever the console used.
    expect(stationLogin({ ...embedded, url: 'mqtt://192.168.1.10:1884' }, 'esl.shop.lan', key)).toMatchObject({
      address: '192.168.1.10:1884',
      localOnly: false,
    });
    // An external broker: its URL (the scheme's port when it names none); an mqtts one is TLS only.
    const external = { url: 'mqtts://broker.example.com', tlsUrl: null, anyHost: false, publicUrls: [] };
    expect(stationLogin(external, 'x', key)).toMatchObject({ address: null, tlsAddress: 'broker.example.com:8883' });
    // What the operator stated wins.
    const stated = { ...everywhere, publicUrls: ['mqtts://esl.example.com:443', 'mqtt://esl.example.com:1884'] };
    expect(stationLogin(stated, 'esl.shop.lan', key)).toEqual({
      address: 'esl.example.com:1884',
      tlsAddress: 'esl.example.com:443',
      username: '7.AP-01',
      localOnly: false,
    });
    // No station broker at all.
    expect(stationLogin(null, 'x', key)).toEqual({
      address: null,
      tlsAddress: null,
      username: '7.AP-01',
      localOnly: false,
    });
  });

  it('reads MQTT_PUBLIC_URL, refusing anything but one mqtt:// and one mqtts:// address', () => {
    expect(mqttPublicUrlsFromEnv({})).toEqual([]);
    expect(mqttPublicUrlsFromEnv({ MQTT_PUBLIC_URL: ' mqtt://esl.lan:1884 , mqtts://esl.lan:8884 ' })).toEqual([
      'mqtt://esl.lan:1884',
      'mqtts://esl.lan:8884',
    ]);
    expect(mqttFromEnv({ MQTT_PUBLIC_URL: 'mqtt://esl.lan:1884' })).toMatchObject({
      mode: 'embedded',
      publicUrls: ['mqtt://esl.lan:1884'],
    });
    for (const bad of [
      'esl.lan:1884',
      'http://esl.lan',
      'mqtt://u:p@esl.lan:1',
      'mqtt://a:1,mqtt://b:1',
      'mqtt://a/x',
    ]) {
      expect(() => mqttPublicUrlsFromEnv({ MQTT_PUBLIC_URL: bad }), bad).toThrow(/^MQTT_PUBLIC_URL must be/);
    }
  });
});

const portOf = (url: string) => new URL(url).port;

describe.each(await testDatabases())('the station login answered with its secret on $name', (db) => {
  describe('a broker listening on every address', () => {
    const t = useApp(db, { mqtt: { mode: 'embedded', host: '0.0.0.0', port: 0 } });

    it('names the host the console reached, the real port and the user name; the station logs in with them', async () => {
      const { tokens, tenant } = await buildShop(t().app);
      const headers = { host: 'esl.shop.lan:8080' };
      const added = await t().call<AddStationData>(
        '/mgr/ap/add',
        { sn: 'login-01' },
        { token: tokens.editor, headers },
      );
      expect(added.code, added.msg).toBe(0);
      const port = portOf(t().app.delivery?.url ?? '');
      expect(Number(port)).toBeGreaterThan(0);
      expect(added.data.login).toEqual({
        address: `esl.shop.lan:${port}`,
        tlsAddress: null,
        username: `${tenant.id}.LOGIN-01`,
        localOnly: false,
      });

      // What the answer says is what the broker takes (the name esl.shop.lan is this machine here).
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
        clientId: added.data.login.username,
        username: added.data.login.username,
        password: added.data.secret,
        protocolVersion: 4,
        reconnectPeriod: 0,
        connectTimeout: 5000,
      });
      expect(client.connected).toBe(true);
      await client.endAsync(true);

      const renewed = await t().call<RenewStationSecretData>(
        '/mgr/ap/renewsecret',
        { id: added.data.id },
        { token: tokens.editor, headers },
      );
      expect(renewed.code, renewed.msg).toBe(0);
      expect(renewed.data.login).toEqual(added.data.login);
    });
  });

  describe('a broker on the loopback address, and one whose address the operator states', () => {
    const local = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });
    const stated = useApp(db, {
      mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0, publicUrls: ['mqtts://esl.example.com:8884'] },
    });

    it('says when only this machine reaches the broker, and shows what the operator stated', async () => {
      const a = await buildShop(local().app);
      const onLoopback = await local().call<AddStationData>(
        '/mgr/ap/add',
        { sn: 'LOOP-01' },
        { token: a.tokens.admin },
      );
      expect(onLoopback.data.login).toEqual({
        address: `127.0.0.1:${portOf(local().app.delivery?.url ?? '')}`,
        tlsAddress: null,
        username: `${a.tenant.id}.LOOP-01`,
        localOnly: true,
      });
      const b = await buildShop(stated().app);
      const given = await stated().call<AddStationData>('/mgr/ap/add', { sn: 'PUB-01' }, { token: b.tokens.admin });
      expect(given.data.login).toEqual({
        address: null,
        tlsAddress: 'esl.example.com:8884',
        username: `${b.tenant.id}.PUB-01`,
        localOnly: false,
      });
    });
  });
});
