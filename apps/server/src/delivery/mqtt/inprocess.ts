import type { Readable } from 'node:stream';
import type { Aedes, AedesPublishPacket } from 'aedes';
import { type MqttHandler, type MqttPort, toBuffer } from './port';

type Deliver = (packet: AedesPublishPacket, cb: () => void) => void;

interface RetainedStore {
  createRetainedStreamCombi(patterns: string[]): Readable;
}

/** The server's port on the embedded broker: `aedes.publish`/`aedes.subscribe`, no login. */
export function inProcessPort(aedes: Aedes): MqttPort {
  const active = new Set<{ filter: string; deliver: Deliver }>();

  const unsubscribe = (entry: { filter: string; deliver: Deliver }) =>
    new Promise<void>((resolve) => {
      if (!active.delete(entry)) return resolve();
      aedes.unsubscribe(entry.filter, entry.deliver, () => resolve());
    });

  return {
    connected: () => !aedes.closed,
    publish(topic, payload, options = {}) {
      return new Promise((resolve, reject) => {
        aedes.publish(
          {
            cmd: 'publish',
            topic,
            payload: toBuffer(payload),
            qos: options.qos ?? 1,
            retain: options.retain ?? false,
            dup: false,
          },
          (err) => (err ? reject(err) : resolve()),
        );
      });
    },

    async subscribe(filter, handler: MqttHandler) {
      const deliver: Deliver = (packet, cb) => {
        try {
          handler({ topic: packet.topic, payload: toBuffer(packet.payload), retain: false });
        } finally {
          cb();
        }
      };
      const entry = { filter, deliver };
      active.add(entry);
      await new Promise<void>((resolve) => aedes.subscribe(filter, deliver, () => resolve()));
      // Like a network subscription: what is retained under the filter is delivered at once.
      const store = (aedes as unknown as { persistence: RetainedStore }).persistence;
      for await (const packet of store.createRetainedStreamCombi([filter])) {
        const p = packet as AedesPublishPacket;
        handler({ topic: p.topic, payload: toBuffer(p.payload), retain: true });
      }
      return () => unsubscribe(entry);
    },

    async close() {
      await Promise.all([...active].map(unsubscribe));
    },
  };
}
