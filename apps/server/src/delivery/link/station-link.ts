import {
  type DownName,
  encodeMessage,
  type MessageInput,
  type MessageName,
  type StationKey,
  topics,
} from '@esl/contract/protocol';
import type { MqttPort } from '../mqtt/port';

/*
 * The downlink: every message the server sends a station goes through one StationLink
 * (docs/PROTOCOL.md §5). The gateway, the task engine, the firmware engine and the resync after a
 * dead process hold a StationLink, never the broker. Today's implementation publishes on our MQTT
 * topics; a bridge that drives another vendor's access point directly (OpenEPaperLink, Bluetooth
 * ESL) is a second implementation of the same interface.
 */

/** A message name the server sends (blob chunks go through `sendBlobChunk`). */
export type DownMessage = Exclude<DownName, 'blob'> & MessageName;

export interface SendOptions {
  /** 1 (default): resolves when the broker has it; 0: fire and forget (`down/time`). */
  qos?: 0 | 1;
}

export interface StationLink {
  /** Encodes and sends one message to a station. */
  send<K extends DownMessage>(
    station: StationKey,
    name: K,
    message: MessageInput<K>,
    options?: SendOptions,
  ): Promise<void>;
  /** Sends a message already encoded (a batch measured against the size limit before it goes). */
  sendEncoded(station: StationKey, name: DownMessage, payload: string, options?: SendOptions): Promise<void>;
  /** One chunk of a blob the station asked for (`down/blob/{hash}/{offset}`: raw bytes). */
  sendBlobChunk(station: StationKey, hash: string, offset: number, bytes: Uint8Array): Promise<void>;
}

/** The StationLink over our MQTT topics, on the embedded broker or an external one. */
export function mqttStationLink(port: MqttPort): StationLink {
  return {
    send(station, name, message, options) {
      return port.publish(topics.down(station, name), encodeMessage(name, message), { qos: options?.qos ?? 1 });
    },
    sendEncoded(station, name, payload, options) {
      return port.publish(topics.down(station, name), payload, { qos: options?.qos ?? 1 });
    },
    sendBlobChunk(station, hash, offset, bytes) {
      return port.publish(topics.blobChunk(station, hash, offset), Buffer.from(bytes), { qos: 1 });
    },
  };
}
