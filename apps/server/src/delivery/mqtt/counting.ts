import type { MqttPort } from './port';

/**
 * The port, counting what arrives on each subscription by its last topic level (`result`,
 * `status`, …): /metrics shows it, and with several server processes the sum over all of them is
 * what the stations sent, each message handled by one.
 */
export function countingPort(port: MqttPort): { port: MqttPort; received: Record<string, number> } {
  const received: Record<string, number> = {};
  return {
    received,
    port: {
      ...port,
      publish: port.publish.bind(port),
      close: port.close.bind(port),
      connected: port.connected.bind(port),
      subscribe(filter, handler, options) {
        return port.subscribe(
          filter,
          (m) => {
            const kind = m.topic.slice(m.topic.lastIndexOf('/') + 1);
            received[kind] = (received[kind] ?? 0) + 1;
            handler(m);
          },
          options,
        );
      },
      ...(port.retained
        ? {
            retained: (filter, handler) =>
              (port.retained as NonNullable<MqttPort['retained']>)(filter, (m) => {
                received.status_retained = (received.status_retained ?? 0) + 1;
                handler(m);
              }),
          }
        : {}),
    },
  };
}
