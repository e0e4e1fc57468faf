import { topicMatches } from '@esl/contract/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import type { MqttHandler, MqttPort } from './port';

export interface ClientPortOptions {
  /** `mqtt://host:port` or `mqtts://…` (MQTT_URL). */
  url: string;
  clientId: string;
  username?: string;
  password?: string;
  /** Reconnect delay after a lost connection; subscriptions are renewed. */
  reconnectMs?: number;
  connectTimeoutMs?: number;
  /** `retained()`: how long the broker must stay quiet before its retained messages count as all read (300 ms), and the longest wait (10 s). */
  retainedQuietMs?: number;
  retainedMaxMs?: number;
}

/** The server's port on an external broker: an mqtt.js client with a clean session. */
export async function connectClientPort(options: ClientPortOptions): Promise<MqttPort> {
  const client: MqttClient = await mqtt.connectAsync(options.url, {
    clientId: options.clientId,
    username: options.username,
    password: options.password,
    clean: true,
    reconnectPeriod: options.reconnectMs ?? 1000,
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    protocolVersion: 4,
  });
  const subscriptions = new Set<{ filter: string; handler: MqttHandler }>();
  client.on('message', (topic, payload, packet) => {
    for (const s of subscriptions) {
      if (topicMatches(s.filter, topic)) s.handler({ topic, payload, retain: packet.retain });
    }
  });

  return {
    async publish(topic, payload, opts = {}) {
      await client.publishAsync(topic, typeof payload === 'string' ? payload : Buffer.from(payload), {
        qos: opts.qos ?? 1,
        retain: opts.retain ?? false,
      });
    },

    async subscribe(filter, handler, opts = {}) {
      const wire = opts.share ? `$share/${opts.share}/${filter}` : filter;
      const entry = { filter: wire, handler };
      subscriptions.add(entry);
      const granted = await client.subscribeAsync(wire, { qos: opts.qos ?? 1 });
      if (granted.some((g) => g.qos === 128)) {
        subscriptions.delete(entry);
        throw new Error(`the broker refused the subscription to ${wire}`);
      }
      return async () => {
        if (!subscriptions.delete(entry)) return;
        if (![...subscriptions].some((s) => s.filter === wire)) await client.unsubscribeAsync(wire);
      };
    },

    async retained(filter, handler) {
      // A connection of its own: on the main one the same message could also be the live copy of
      // a shared subscription, and nothing on the wire says which subscription brought it.
      const reader = await mqtt.connectAsync(options.url, {
        clientId: `${options.clientId}-r${Math.random().toString(36).slice(2, 8)}`,
        username: options.username,
        password: options.password,
        clean: true,
        reconnectPeriod: 0,
        connectTimeout: options.connectTimeoutMs ?? 10_000,
        protocolVersion: 4,
      });
      let count = 0;
      try {
        let last = performance.now();
        reader.on('message', (topic, payload, packet) => {
          if (!packet.retain) return;
          last = performance.now();
          count++;
          handler({ topic, payload, retain: true });
        });
        await reader.subscribeAsync(filter, { qos: 1 });
        // The broker sends what it retains right after the SUBACK: read until it has been quiet a while.
        const end = performance.now() + (options.retainedMaxMs ?? 10_000);
        while (performance.now() - last < (options.retainedQuietMs ?? 300) && performance.now() < end)
          await new Promise((r) => setTimeout(r, 50));
      } finally {
        await reader.endAsync();
      }
      return count;
    },

    connected: () => client.connected,

    async close() {
      subscriptions.clear();
      await client.endAsync();
    },
  };
}
