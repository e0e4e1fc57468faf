import {
  DEFAULTS,
  decodeMessage,
  encodeMessage,
  type Job,
  type JobKind,
  LIMITS,
  MESSAGES,
  type Message,
  type MessageInput,
  type MessageName,
  messageForPath,
  parseTopic,
  type ResultCode,
  type ResultEntry,
  type StationKey,
  stationRoot,
  stationUsername,
  topics,
} from '@esl/contract/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import { BlobPulls } from './blobs';
import { type CmdSessions, onCmd, type StationDriver } from './driver';
import { imageMatches as imageBlobMatches } from './images';
import { acceptJobs, type HeldJob } from './jobs';
import { Outbox } from './outbox';
import { TagTable } from './tag-table';
import type { Clock, Rng } from './time';

/** Who the station is on the broker. */
export interface StationIdentity {
  tenantId: number;
  sn: string;
  /** The MQTT secret shown when the station was added (docs/PROTOCOL.md 3). */
  secret: string;
}

/** The protocol-side counters every station keeps (the simulator adds its radio's). */
export interface LinkStats {
  connects: number;
  refusals: number;
  abruptLosses: number;
  reboots: number;
  sent: Partial<Record<MessageName, number>>;
  received: Partial<Record<MessageName | 'blobChunk', number>>;
  /** Down messages that failed their schema (dropped). */
  badDown: number;
  acks: { ok: number; refused: number };
  results: Partial<Record<ResultCode, number>>;
}

export const newLinkStats = (): LinkStats => ({
  connects: 0,
  refusals: 0,
  abruptLosses: 0,
  reboots: 0,
  sent: {},
  received: {},
  badDown: 0,
  acks: { ok: 0, refused: 0 },
  results: {},
});

export interface LinkOptions {
  /** The broker: `mqtt://host:port`, or `mqtts://host:port` for MQTT over TLS. */
  url: string;
  /** For `mqtts://`: PEM certificates to trust instead of the system's. The broker's certificate is always verified. */
  ca?: string | Buffer;
  clock: Clock;
  rng: Rng;
  /** Virtual ms before reconnecting after a lost connection (doubling on refusals, up to 5 min). */
  reconnectMs?: number;
  /** Jobs it holds at most (`caps.queue`). */
  queueSize?: number;
  /** Heartbeat and tag-report intervals until the server's config says otherwise, s. */
  heartbeatS?: number;
  reportS?: number;
  /** Its counters; pass a bigger object to share it with the downward half. */
  stats?: LinkStats;
  /** Station time minus this clock (a station whose own clock is off). */
  skewMs?: () => number;
  /** Called after anything observable changed. */
  onChange?: () => void;
  /** Called with every jobs message as it arrives. */
  onJobs?: (station: StationKey, jobs: readonly Job[]) => void;
  log?: (line: string) => void;
}

type ConfigView = Omit<Message<'config'>, 'wifi'> & { wifi?: { ssid: string } };

/**
 * The upward half of a station (docs/PROTOCOL.md): MQTT login with the station's secret, the Will,
 * status, hello and welcome, heartbeats, tag reports, jobs in a queue with acks, blob pulls, the
 * command window, and results in an outbox until the server confirms them. What happens on the
 * radio — simulated tags, an OpenEPaperLink access point — is the `StationDriver`'s.
 */
export class StationLink {
  readonly key: StationKey;
  readonly username: string;
  readonly stats: LinkStats;
  connId = '';
  boot = 1;
  cfgRev = 0;
  heartbeatS: number;
  reportS: number;
  config: ConfigView;
  /** Server time minus local time, learned from welcome and down/time. */
  offsetMs = 0;
  /** The last error the broker gave (e.g. a refused login). */
  lastError: string | null = null;
  readonly queue = new Map<string, HeldJob>();
  readonly results: Outbox;
  /** Lines the command window's `log tail` shows. */
  readonly logLines: string[] = [];
  /** The tags heard and what the next report carries. */
  readonly heard = new TagTable();
  readonly pulls = new BlobPulls(DEFAULTS.chunk);
  readonly cmdSessions: CmdSessions = new Map();
  readonly clock: Clock;
  readonly rng: Rng;
  readonly queueSize: number;
  readonly reconnectMs: number;
  bootedAt: number;
  driver: StationDriver | null = null;

  private client: MqttClient | null = null;
  private connected = false;
  private welcomed = false;
  /** true after disconnect() until reconnect(): no automatic reconnects. */
  private held = false;
  private stopped = false;
  private readonly timers = new Set<number>();
  private heartbeatTimer: number | null = null;
  private reportTimer: number | null = null;
  private sweepTimer: number | null = null;
  private reconnectTimer: number | null = null;
  private reconnectDelay: number;
  private seq = 0;
  private lastFullReport = 0;
  private readonly secret: string;
  private readonly opts: LinkOptions;
  /** The drop in progress, if any (reconnect waits for it). */
  private dropping: Promise<void> = Promise.resolve();

  constructor(identity: StationIdentity, options: LinkOptions) {
    this.key = { tenantId: identity.tenantId, sn: identity.sn };
    this.username = stationUsername(this.key);
    this.secret = identity.secret;
    this.opts = options;
    this.clock = options.clock;
    this.rng = options.rng;
    this.stats = options.stats ?? newLinkStats();
    this.queueSize = options.queueSize ?? 512;
    this.reconnectMs = options.reconnectMs ?? 2000;
    this.reconnectDelay = this.reconnectMs;
    this.heartbeatS = options.heartbeatS ?? DEFAULTS.heartbeatS;
    this.reportS = options.reportS ?? DEFAULTS.reportS;
    this.config = { v: 1, cfgRev: 0, heartbeatS: this.heartbeatS, reportS: this.reportS };
    this.bootedAt = this.clock.now();
    this.results = new Outbox(
      (results) => void this.publish('result', { v: 1, results }).catch(() => {}),
      () => this.connected && this.welcomed,
    );
  }

  // ------------------------------------------------------------------------------------------
  // Lifecycle

  get isConnected(): boolean {
    return this.connected;
  }

  get isWelcomed(): boolean {
    return this.welcomed;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Results not yet confirmed by down/resack, by `id:rev`. */
  get outbox(): Map<string, ResultEntry> {
    return this.results.entries;
  }

  /** Connects (and keeps reconnecting); resolves at the first CONNACK or refusal. */
  start(): Promise<void> {
    return this.connect();
  }

  /** Drops the connection (`abrupt`: no DISCONNECT, the broker publishes the Will) until `reconnect()`. */
  async disconnect({ abrupt = false }: { abrupt?: boolean } = {}): Promise<void> {
    this.held = true;
    await this.drop(abrupt);
  }

  async reconnect(): Promise<void> {
    this.held = false;
    await this.dropping; // a drop still closing its socket finishes first
    if (this.connected || this.stopped) return;
    await this.connect();
  }

  /**
   * Restarts: the connection dies abruptly, the queue (unless `keepQueue`), blob chunks, tag
   * table and command sessions are lost; the outbox and configuration survive. `up` runs when it
   * is back, after `downMs`, just before it connects again.
   */
  async restart({ keepQueue = false, downMs = 3000, up }: { keepQueue?: boolean; downMs?: number; up?: () => void }) {
    this.stats.reboots++;
    this.held = true;
    await this.drop(true);
    if (!keepQueue) this.queue.clear();
    this.pulls.clear();
    this.heard.clear();
    this.cmdSessions.clear();
    this.boot++;
    this.log(`reboot (boot ${this.boot})`);
    this.after(downMs, () => {
      up?.();
      this.bootedAt = this.clock.now();
      this.held = false;
      void this.connect();
    });
  }

  /** Publishes a retained offline status, disconnects cleanly, stops every timer. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const id of this.timers) this.clock.clear(id);
    this.timers.clear();
    await this.drop(false);
  }

  // ------------------------------------------------------------------------------------------
  // MQTT

  private connect(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.clearTimer('reconnectTimer');
    this.connId = this.rng.id(8);
    const will = encodeMessage('status', { v: 1, online: false, connId: this.connId, at: this.localNow() });
    const client = mqtt.connect(this.opts.url, {
      clientId: this.username,
      username: this.username,
      password: this.secret,
      clean: true,
      keepalive: DEFAULTS.keepaliveS,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      protocolVersion: 4,
      ...(this.opts.ca === undefined ? {} : { ca: this.opts.ca }),
      will: { topic: topics.status(this.key), payload: Buffer.from(will), qos: 1, retain: true },
    });
    this.client = client;
    return new Promise<void>((resolve) => {
      client.on('connect', () => {
        resolve();
        void this.onConnect(client);
      });
      client.on('message', (topic, payload) => this.onMessage(client, topic, payload));
      client.on('error', (err) => {
        this.lastError = err.message;
        if (typeof (err as { code?: unknown }).code === 'number') this.stats.refusals++; // a CONNACK refusal
        resolve();
      });
      client.on('close', () => {
        resolve();
        this.onClose(client);
      });
    });
  }

  private async onConnect(client: MqttClient): Promise<void> {
    this.connected = true;
    this.welcomed = false;
    this.lastError = null;
    this.reconnectDelay = this.reconnectMs;
    this.stats.connects++;
    this.seq = 0;
    this.heard.forgetReports();
    this.log(`connected as ${this.username} (connId ${this.connId})`);
    try {
      await client.subscribeAsync(topics.downFilter(this.key), { qos: 1 });
      await this.publish('status', { v: 1, online: true, connId: this.connId, at: this.localNow() }, client);
      await this.publish('hello', this.hello(), client);
    } catch (err) {
      this.log(`connect sequence failed: ${(err as Error).message}`);
    }
    this.startTimers();
    this.changed();
  }

  private onClose(client: MqttClient): void {
    if (client !== this.client) return;
    const was = this.connected;
    this.connected = false;
    this.welcomed = false;
    this.client = null;
    this.pulls.lostConnection();
    if (was) this.log('connection lost');
    this.changed();
    if (this.held || this.stopped) return;
    const delay = this.reconnectDelay * this.rng.between(0.8, 1.2);
    if (!was) this.reconnectDelay = Math.min(this.reconnectDelay * 2, 300_000);
    this.reconnectTimer = this.after(delay, () => {
      this.reconnectTimer = null;
      if (!this.held && !this.connected) void this.connect();
    });
  }

  private drop(abrupt: boolean): Promise<void> {
    this.dropping = this.dropNow(abrupt);
    return this.dropping;
  }

  private async dropNow(abrupt: boolean): Promise<void> {
    const client = this.client;
    if (!client) return;
    if (abrupt) {
      if (client.connected) {
        this.stats.abruptLosses++;
        const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
        client.stream.destroy(); // no DISCONNECT: the broker publishes the Will
        await closed;
      }
      client.end(true);
      return;
    }
    if (this.connected) {
      await this.publish('status', { v: 1, online: false, connId: this.connId, at: this.localNow() }, client).catch(
        () => {},
      );
    }
    await client.endAsync().catch(() => {});
  }

  async publish<K extends MessageName>(name: K, body: MessageInput<K>, client = this.client): Promise<void> {
    if (!client) return;
    const spec = MESSAGES[name];
    const topic = `${stationRoot(this.key)}/${spec.path}`;
    this.stats.sent[name] = (this.stats.sent[name] ?? 0) + 1;
    await client.publishAsync(topic, encodeMessage(name, body), { qos: spec.qos, retain: spec.retain });
  }

  private onMessage(client: MqttClient, topic: string, payload: Buffer): void {
    if (client !== this.client) return;
    const parsed = parseTopic(topic);
    if (parsed?.kind !== 'down' || parsed.tenantId !== this.key.tenantId || parsed.sn !== this.key.sn) {
      this.stats.badDown++;
      return;
    }
    if (parsed.name === 'blob') {
      this.stats.received.blobChunk = (this.stats.received.blobChunk ?? 0) + 1;
      this.onBlobChunk(parsed.hash, parsed.offset, payload);
      this.changed();
      return;
    }
    const name = messageForPath(`down/${parsed.name}`);
    if (!name) return;
    const decoded = decodeMessage(name, payload);
    if (!decoded.ok) {
      this.stats.badDown++;
      this.log(`dropped ${name}: ${decoded.error} ${decoded.detail}`);
      return;
    }
    this.stats.received[name] = (this.stats.received[name] ?? 0) + 1;
    this.dispatch(name, decoded.message);
    this.changed();
  }

  private dispatch(name: MessageName, m: unknown): void {
    switch (name) {
      case 'welcome':
        this.onWelcome(m as Message<'welcome'>);
        break;
      case 'jobs':
        this.onJobs(m as Message<'jobs'>);
        break;
      case 'cancel':
        this.onCancel(m as Message<'cancel'>);
        break;
      case 'resack':
        for (const [id, rev] of (m as Message<'resack'>).ids) this.results.confirm(id, rev);
        break;
      case 'config':
        this.onConfig(m as Message<'config'>);
        break;
      case 'cmd':
        onCmd(
          {
            now: this.clock.now(),
            sessions: this.cmdSessions,
            send: (body) => void this.publish('cmdOutput', body).catch(() => {}),
            log: (line) => this.log(line),
            driver: this.driver,
          },
          m as Message<'cmd'>,
        );
        break;
      case 'time':
        // The server's clock: what its own clock is off by is corrected from here on.
        this.offsetMs = (m as Message<'time'>).t - this.localNow();
        break;
    }
  }

  // ------------------------------------------------------------------------------------------
  // Protocol

  private requireDriver(): StationDriver {
    if (!this.driver) throw new Error(`${this.username}: no station driver attached`);
    return this.driver;
  }

  private hello(): MessageInput<'hello'> {
    const d = this.requireDriver().hello();
    return {
      v: 1,
      connId: this.connId,
      boot: this.boot,
      model: d.model,
      fw: d.fw,
      radio: d.radio,
      caps: {
        queue: this.queueSize,
        queueBytes: 4 * 1024 * 1024,
        inlineMax: DEFAULTS.inlineMax,
        chunk: DEFAULTS.chunk,
        fwConcurrent: 1,
        kinds: [...this.kinds()],
      },
      queue: [...this.queue.values()].map((h) => [h.job.id, h.job.rev] as [string, number]),
      outbox: this.results.size,
      net: d.net,
      cfgRev: this.cfgRev,
      time: this.localNow(),
    };
  }

  private kinds(): readonly JobKind[] {
    return this.requireDriver().kinds();
  }

  private onWelcome(m: Message<'welcome'>): void {
    if (m.connId !== this.connId) return; // the answer to an older connection's hello
    this.welcomed = true;
    this.offsetMs = m.time - this.localNow();
    this.results.resendAll();
    this.requestChunks();
    this.driver?.welcomed?.();
  }

  private onJobs(m: Message<'jobs'>): void {
    this.opts.onJobs?.(this.key, m.jobs);
    const driver = this.requireDriver();
    const acks = acceptJobs(
      {
        queue: this.queue,
        kinds: this.kinds(),
        queueSize: this.queueSize,
        now: this.clock.now(),
        replaced: (job) => this.result(job, 'replaced', {}),
        queued: (held) => {
          const job = held.job;
          if (job.kind === 'image' && held.bytes === null) {
            this.pulls.start(job.image.hash, job.image.size);
            this.requestChunks();
          }
          if (job.kind === 'rollcall') this.rollCall(job);
          driver.queued?.(held);
        },
      },
      m.jobs,
    );
    for (const a of acks) a.ok ? this.stats.acks.ok++ : this.stats.acks.refused++;
    for (let i = 0; i < acks.length; i += LIMITS.maxAcksPerMessage) {
      void this.publish('ack', { v: 1, jobs: acks.slice(i, i + LIMITS.maxAcksPerMessage) }).catch(() => {});
    }
    driver.work?.();
  }

  private onCancel(m: Message<'cancel'>): void {
    for (const [id, rev] of m.ids) {
      const held = this.queue.get(id);
      if (!held || held.job.rev > rev || held.running) continue;
      this.queue.delete(id);
      this.result(held.job, 'cancelled', {});
    }
  }

  private onConfig(m: Message<'config'>): void {
    const { wifi, ...rest } = m;
    this.config = { ...rest, ...(wifi ? { wifi: { ssid: wifi.ssid } } : {}) };
    this.cfgRev = m.cfgRev;
    this.driver?.configured?.(m);
    const timersChanged = m.heartbeatS !== this.heartbeatS || m.reportS !== this.reportS;
    this.heartbeatS = m.heartbeatS;
    this.reportS = m.reportS;
    if (timersChanged) this.startTimers(true);
    this.log(`config rev ${m.cfgRev} applied${wifi ? ` (wifi ${wifi.ssid})` : ''}`);
    // Report the applied revision at once, as firmware would, rather than a heartbeat later.
    this.heartbeat();
  }

  /** Answers from the tag table, without airtime: present = heard within twice its wake interval. */
  private rollCall(job: Job): void {
    const now = this.serverNow();
    this.queue.delete(job.id);
    const ids = this.driver?.rollCallTags?.() ?? [];
    if (ids.length === 0) this.result(job, 'ok', {});
    for (const tag of ids) this.result(job, 'ok', { tag, present: this.heard.present(tag, now) });
  }

  /** Ends a job with a result, kept in the outbox until the server confirms it. */
  result(job: Job, code: ResultCode, extra: Partial<ResultEntry>): void {
    this.results.add(job, code, extra, this.serverNow());
    this.stats.results[code] = (this.stats.results[code] ?? 0) + 1;
    this.changed();
  }

  /** Ends a job with a result; when a newer rev arrived meanwhile, that one stays queued. */
  finish(held: HeldJob, code: ResultCode, extra: Partial<ResultEntry>, ran: Job = held.job): void {
    const current = this.queue.get(ran.id);
    if (current && current.job.rev === ran.rev) this.queue.delete(ran.id);
    this.result(ran, code, extra);
  }

  // ------------------------------------------------------------------------------------------
  // Blobs

  requestChunks(): void {
    if (!this.connected) return;
    for (const r of this.pulls.nextRequests()) {
      this.driver?.chunkRequested?.(r, this.stats.connects);
      void this.publish('blobRequest', { v: 1, ...r }).catch(() => {});
    }
  }

  private onBlobChunk(hash: string, offset: number, payload: Buffer): void {
    const driver = this.driver;
    const raw = new Uint8Array(payload);
    const bytes = driver?.chunk ? driver.chunk(offset, raw) : raw;
    const blob = this.pulls.receive(hash, offset, bytes);
    if (driver?.blob?.(hash, blob)) return;
    if (blob) {
      const good = imageBlobMatches(blob, hash);
      for (const held of [...this.queue.values()]) {
        if (held.job.kind !== 'image' || held.job.image.hash !== hash) continue;
        if (good) {
          held.bytes = blob;
        } else {
          this.queue.delete(held.job.id);
          this.result(held.job, 'badBlob', {});
        }
      }
      if (good) driver?.work?.();
    }
    this.requestChunks();
  }

  // ------------------------------------------------------------------------------------------
  // Heartbeat and tag reports

  startTimers(restart = false): void {
    if (restart || this.heartbeatTimer === null) {
      this.clearTimer('heartbeatTimer');
      this.heartbeatTimer = this.interval(this.heartbeatS * 1000, () => this.heartbeat());
    }
    if (restart || this.reportTimer === null) {
      this.clearTimer('reportTimer');
      this.reportTimer = this.interval(this.reportS * 1000, () => this.report());
    }
    if (this.sweepTimer === null) this.sweepTimer = this.interval(5000, () => this.sweep());
  }

  heartbeat(): void {
    if (!this.connected) return;
    const d = this.requireDriver().heartbeat();
    const queueBytes = [...this.queue.values()].reduce((s, h) => s + (h.bytes?.length ?? 0), 0);
    void this.publish('heartbeat', {
      v: 1,
      at: this.localNow(),
      uptimeS: this.uptimeS(),
      ...d,
      queue: { jobs: this.queue.size, bytes: queueBytes },
      tagsHeard: this.heard.countPresent(this.serverNow()),
      cfgRev: this.cfgRev,
    }).catch(() => {});
  }

  /**
   * Tags that changed since they were last reported, plus tags heard again whose last report is
   * older than twice their wake interval; every tag heard recently at least every 10 minutes (`full`).
   */
  report(): void {
    if (!this.connected) return;
    const now = this.clock.now();
    const full = now - this.lastFullReport >= DEFAULTS.fullReportS * 1000;
    const due = this.heard.takeDue(now, this.serverNow(), full);
    if (full) this.lastFullReport = now;
    if (due.length === 0 && !full) return;
    for (let i = 0; i < Math.max(1, due.length); i += LIMITS.maxTagsPerReport) {
      const tags = due.slice(i, i + LIMITS.maxTagsPerReport);
      void this.publish('tags', { v: 1, seq: this.seq++, at: this.serverNow(), full, tags }).catch(() => {});
    }
  }

  /** Jobs whose TTL passed end as `timeout`, or `unknownTag` when the tag was never heard. */
  private sweep(): void {
    const now = this.clock.now();
    for (const held of [...this.queue.values()]) {
      if (!held.running && held.deadline <= now) {
        this.queue.delete(held.job.id);
        const tag = 'tag' in held.job ? held.job.tag : undefined;
        const code = tag !== undefined && !this.heard.has(tag) ? 'unknownTag' : 'timeout';
        this.result(held.job, code, { tries: held.tries });
      }
    }
    for (const [id, s] of this.cmdSessions) if (s.expiresAt < now) this.cmdSessions.delete(id);
  }

  // ------------------------------------------------------------------------------------------
  // Time, log, timers

  /** Local clock (with the station's skew). */
  localNow(): number {
    return this.clock.now() + (this.opts.skewMs?.() ?? 0);
  }

  /** Local clock corrected by what the server said its time is. */
  serverNow(): number {
    return this.localNow() + this.offsetMs;
  }

  uptimeS(): number {
    return Math.floor((this.clock.now() - this.bootedAt) / 1000);
  }

  log(line: string): void {
    const text = `${new Date(this.serverNow()).toISOString()} ${line}`;
    this.logLines.push(text);
    if (this.logLines.length > 500) this.logLines.splice(0, this.logLines.length - 500);
    this.opts.log?.(`[${this.username}] ${line}`);
  }

  changed(): void {
    this.opts.onChange?.();
  }

  /** A timer on the station's clock, cleared by stop(). */
  after(ms: number, fn: () => void): number {
    const id = this.clock.setTimeout(() => {
      this.timers.delete(id);
      if (!this.stopped) fn();
    }, ms);
    this.timers.add(id);
    return id;
  }

  interval(ms: number, fn: () => void): number {
    const id = this.clock.setInterval(() => {
      if (!this.stopped) fn();
    }, ms);
    this.timers.add(id);
    return id;
  }

  private clearTimer(name: 'heartbeatTimer' | 'reportTimer' | 'sweepTimer' | 'reconnectTimer'): void {
    const id = this[name];
    if (id === null) return;
    this.clock.clear(id);
    this.timers.delete(id);
    this[name] = null;
  }
}
