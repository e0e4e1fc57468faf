import type { AddStationData } from '@esl/contract';
import {
  encodeMessage,
  MESSAGES,
  type MessageInput,
  type StationKey,
  stationRoot,
  stationUsername,
  topics,
} from '@esl/contract/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { transientFailures } from '../../infra/db/retry';
import { buildShop, insertBoundTags } from '../../test/business';
import { testDatabases } from '../../test/databases';
import { useApp } from '../../test/harness';

// A busy store (issue 25): three stations that hear the same 500 tags report them at once, round
// after round, each listing them in its own order and hearing them at its own strength (so tags
// move between stations). On PostgreSQL two such reports used to lock the same rows in opposite
// orders and one of them died of a deadlock, its report lost. Now every row is locked in id order
// and a transaction that still loses is run again: every report is stored, and no deadlock is met.

const ROUNDS = 60;
const TAGS = 500;
const STATIONS = 3;

const open: MqttClient[] = [];
afterAll(async () => {
  await Promise.all(open.splice(0).map((c) => c.endAsync(true).catch(() => {})));
});

/** A seeded shuffle: each station lists the tags in its own order, different every round. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let x = seed * 2654435761 + 1;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe.each(await testDatabases())('a busy store on $name', (db) => {
  const t = useApp(db, { mqtt: { mode: 'embedded', host: '127.0.0.1', port: 0 } });

  it(`stores every report of ${STATIONS} stations hearing the same ${TAGS} tags, ${ROUNDS} rounds at once`, async () => {
    const delivery = t().app.delivery;
    if (!delivery) throw new Error('no delivery');
    const shop = await buildShop(t().app);
    const at = { tenantId: shop.tenant.id, storeId: shop.store.id };
    const tags = await insertBoundTags(t().app.services.db, at, TAGS, {
      hwPrefix: 'BB',
      priceCents: () => 100,
      now: t().clock.now(),
    });
    const stations: Array<{ key: StationKey; client: MqttClient }> = [];
    for (let i = 0; i < STATIONS; i++) {
      const added = await t().call<AddStationData>('/mgr/ap/add', { sn: `BUSY${i}` }, { token: shop.tokens.admin });
      expect(added.code, added.msg).toBe(0);
      const key = { tenantId: at.tenantId, sn: added.data.sn };
      const client = await mqtt.connectAsync(delivery.url, {
        clientId: stationUsername(key),
        username: stationUsername(key),
        password: added.data.secret,
        reconnectPeriod: 0,
        connectTimeout: 10_000,
      });
      open.push(client);
      const connId = `busy${i}`;
      const now = t().clock.now();
      await client.subscribeAsync(topics.downFilter(key), { qos: 1 });
      await client.publishAsync(topics.status(key), encodeMessage('status', { v: 1, online: true, connId, at: now }), {
        qos: 1,
        retain: true,
      });
      stations.push({ key, client });
    }
    await delivery.gateway.idle();

    const before = {
      entries: delivery.gateway.counters.tagEntries,
      dropped: { ...delivery.gateway.counters.dropped },
      deadlocks: transientFailures.retried.get('40P01') ?? 0,
      gaveUp: [...transientFailures.gaveUp.values()].reduce((a, b) => a + b, 0),
    };
    const errors: unknown[] = [];
    const logged = vi.spyOn(t().app.log, 'error').mockImplementation((...args: unknown[]) => {
      errors.push(args);
    });

    const report = (i: number, round: number): MessageInput<'tags'> => {
      const now = t().clock.now();
      return {
        v: 1,
        seq: round,
        at: now,
        full: true,
        tags: shuffled(tags, round * STATIONS + i + 1).map((tag, k) => ({
          id: tag.hw,
          // Each round another station hears each tag best: routes move, station_id is written.
          rssi: -50 - ((k + round + i * 7) % 20),
          battMv: 2700 + i,
          temp: 21,
          ver: '0000000000000000',
          hw: '05',
          wakeS: 60,
          seenAt: now - 1000,
        })),
      };
    };
    await Promise.all(
      stations.map(async (s, i) => {
        for (let round = 0; round < ROUNDS; round++) {
          await s.client.publishAsync(
            `${stationRoot(s.key)}/${MESSAGES.tags.path}`,
            encodeMessage('tags', report(i, round)),
            {
              qos: 1,
            },
          );
        }
      }),
    );
    await vi.waitFor(
      async () => {
        await delivery.gateway.idle();
        expect(delivery.gateway.counters.tagEntries - before.entries).toBe(STATIONS * ROUNDS * TAGS);
      },
      { timeout: 120_000, interval: 200 },
    );
    logged.mockRestore();

    // Every report stored, none dropped, nothing logged as failed.
    expect(delivery.gateway.counters.dropped).toEqual(before.dropped);
    expect(errors).toEqual([]);
    // Rows locked in one order: not one deadlock met (not merely retried away).
    expect((transientFailures.retried.get('40P01') ?? 0) - before.deadlocks).toBe(0);
    expect([...transientFailures.gaveUp.values()].reduce((a, b) => a + b, 0)).toBe(before.gaveUp);
    const heard = await t()
      .app.services.db.selectFrom('tags')
      .select(['station_id', 'battery'])
      .where('store_id', '=', at.storeId)
      .execute();
    expect(heard).toHaveLength(TAGS);
    expect(heard.every((r) => r.station_id !== null && r.battery !== null)).toBe(true);
  }, 240_000);
});
