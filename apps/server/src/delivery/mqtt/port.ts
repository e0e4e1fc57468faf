/**
 * The server's side of MQTT, whatever the broker: publish to stations, subscribe to what they
 * send. Two implementations: in-process over the embedded aedes broker (no network, no
 * credentials) and an mqtt.js client for an external broker (`MQTT_URL`: Mosquitto, EMQX).
 */

export interface MqttMessage {
  readonly topic: string;
  readonly payload: Buffer;
  /** True when delivered from the broker's retained store at subscribe time. */
  readonly retain: boolean;
}

export type MqttHandler = (message: MqttMessage) => void;

export interface PublishOptions {
  qos?: 0 | 1;
  retain?: boolean;
}

export interface SubscribeOptions {
  qos?: 0 | 1;
  /**
   * Shared-subscription group: on a broker that has them (Mosquitto, EMQX) each message goes to
   * one subscriber of the group (`$share/{group}/…`). In-process there is one server: ignored.
   */
  share?: string;
}

export type Unsubscribe = () => Promise<void>;

export interface MqttPort {
  /** Resolves when the broker has the message (PUBACK for QoS 1 on a network broker). */
  publish(topic: string, payload: string | Uint8Array, options?: PublishOptions): Promise<void>;
  /** Resolves once the subscription is in place; retained messages that match follow. */
  subscribe(filter: string, handler: MqttHandler, options?: SubscribeOptions): Promise<Unsubscribe>;
  /**
   * Hands `handler` what the broker holds retained under `filter`, once, and nothing published
   * later. Several server processes subscribe to live station messages through a shared
   * subscription, which brokers never send retained messages to, so each reads the retained ones
   * (the stations' last statuses) this way when it starts. Absent on the embedded broker.
   */
  retained?(filter: string, handler: MqttHandler): Promise<number>;
  /** Whether the port can reach the broker now (/readyz); a client between reconnects cannot. */
  connected(): boolean;
  close(): Promise<void>;
}

export const toBuffer = (payload: string | Uint8Array): Buffer =>
  typeof payload === 'string'
    ? Buffer.from(payload, 'utf8')
    : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
