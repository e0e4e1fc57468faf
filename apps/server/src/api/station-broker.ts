/** What the server knows of where its stations connect (from the delivery layer, at start). */
export interface BrokerAddresses {
  /** The plain listener: `mqtt://host:port` of the embedded broker (its real port), or MQTT_URL. */
  url: string;
  /** The embedded broker's TLS listener, `mqtts://host:port`; null: none. */
  tlsUrl: string | null;
  /** The embedded broker listens on every address: a station dials the host it reaches the server by. */
  anyHost: boolean;
  /** MQTT_PUBLIC_URL: the addresses stations dial, as the operator states them (`mqtt://…`, `mqtts://…`). */
  publicUrls: readonly string[];
}
