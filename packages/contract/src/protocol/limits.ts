/**
 * Numbers of the station protocol (DELIVERY.md §4). Both ends read them from here: the server to
 * check what stations send, the simulator (and the docs) to say what a station must respect.
 */

/** The `v` every payload carries. A station speaking another version is refused message by message. */
export const PROTOCOL_VERSION = 1;

/** Topic root; the version is part of it so a v2 can live beside v1 on one broker. */
export const TOPIC_ROOT = 'esl/v1';

export const LIMITS = {
  /** Largest JSON payload either side sends or accepts (fits EMQX's 1 MB default, aedes, Mosquitto). */
  maxMessageBytes: 256 * 1024,
  /** Largest MQTT packet the embedded broker reads; a bigger one closes the connection. */
  maxPacketBytes: 512 * 1024,
  /** Jobs in one `down/jobs` message. */
  maxJobsPerMessage: 64,
  /** Entries in one `up/tags` report; a station with more sends several. */
  maxTagsPerReport: 500,
  /** Learned tag models in one `up/models` (every model the station knows). */
  maxModelsPerMessage: 64,
  /** Entries in one `up/ack` or `up/result`. */
  maxAcksPerMessage: 512,
  maxResultsPerMessage: 500,
  /** `[id, rev]` pairs in one `down/cancel`, `down/resack` or in `hello.queue`. */
  maxRefsPerMessage: 8192,
  /** Hard cap of an inline image (bytes before base64); a station advertises its own `caps.inlineMax`. */
  maxInlineBytes: 64 * 1024,
  /** Largest blob chunk a station may ask for at once. */
  maxChunkBytes: 128 * 1024,
  /** Blob requests a station keeps in flight. */
  maxBlobRequestsInFlight: 4,
  /** Largest blob (firmware image) the protocol can address. */
  maxBlobBytes: 64 * 1024 * 1024,
  /** Command-window text per message. */
  /** Pages of a label a tag holds (§5.15; the template document's limit, docs/PAGES.md). */
  maxPages: 8,
  maxCmdLine: 512,
  maxCmdOutput: 16 * 1024,
} as const;

/** What a station uses until the server's `down/config` says otherwise. */
export const DEFAULTS = {
  heartbeatS: 60,
  reportS: 30,
  /** A full tag report (every tag heard, not only changes) at least this often. */
  fullReportS: 600,
  inlineMax: 16 * 1024,
  chunk: 16 * 1024,
  fwConcurrent: 1,
  /** Acks are batched at most this long. */
  ackBatchMs: 100,
  /** The server sends `down/time` this often (and in every welcome). */
  timeS: 600,
  /** Missed heartbeats after which the server marks a station offline. */
  missedHeartbeats: 3,
  /** A command-window session closes by itself after this long. */
  cmdTtlS: 600,
  /** MQTT keepalive a station uses; the embedded broker refuses more than `maxKeepaliveS`. */
  keepaliveS: 60,
  maxKeepaliveS: 120,
} as const;
