import { randomBytes } from 'node:crypto';
import {
  DEFAULTS,
  encodeMessage,
  type Job,
  LIMITS,
  MESSAGES,
  type Message,
  type MessageInput,
  type MessageName,
  type ResultCode,
  type ResultEntry,
  type StationKey,
  stationRoot,
  stationUsername,
  topics,
} from '@esl/contract/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import { BlobPulls } from './blobs';
import { onDown } from './down';
import type { CmdSessions, StationDriver } from './driver';
import type { HeldJob } from './jobs';
import { type LinkOptions, type LinkStats, newLinkStats, type StationIdentity } from './options';
import { Outbox } from './outbox';
import { TagTable } from './tag-table';
import type { Clock, Rng } from './time';
import { hello, sendHeartbeat, sendReport, sweep } from './upward';

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
  readonly onJobsHook?: (station: StationKey, jobs: readonly Job[]) => void;

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
  /** The tag reports' sequence on this connection and the last full one. */
  private readonly reports = { seq: 0, lastFull: 0 };
  private readonly secret: string;
  private readonly opts: LinkOptions;
  /** The drop in progress, if any (reconnect waits for it). */
  private dropping: Promise<void> = Promise.resolve();

  constructor(identity: StationIdentity, options: LinkOptions) {
    this.key = { tenantId: identity.tenantId, sn: identity.sn };
    this.username = stationUsername(this.key);
    this.secret = identity.secret;
    this.opts = options;
    this.onJobsHook = options.onJobs;
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

  private connect(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.clearTimer('reconnectTimer');
    // A fresh id per connection (docs/PROTOCOL.md §2). The seeded draw keeps the stream as it
    // was; the random part makes the id unique across runs: a simulator or bridge started again
    // with the same seed reused its last run's ids, and the server could not tell the new
    // connection from the one it held (a demo restart logged no station online).
    this.connId = `${this.rng.id(8)}${randomBytes(3).toString('hex')}`;
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
    this.reports.seq = 0;
    this.heard.forgetReports();
    this.log(`connected as ${this.username} (connId ${this.connId})`);
    try {
      await client.subscribeAsync(topics.downFilter(this.key), { qos: 1 });
      await this.publish('status', { v: 1, online: true, connId: this.connId, at: this.localNow() }, client);
      await this.publish('hello', hello(this), client);
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
    onDown(this, topic, payload);
  }

  /** The server answered hello (ignored when it answers an older connection's). */
  welcome(m: Message<'welcome'>): void {
    if (m.connId !== this.connId) return; // the answer to an older connection's hello
    this.welcomed = true;
    this.offsetMs = m.time - this.localNow();
    this.results.resendAll();
    this.requestChunks();
    this.sendModels();
    this.driver?.welcomed?.();
  }

  /**
   * Tells the server every tag model the driver learned (`up/models`); after each welcome, and
   * whenever the driver learns one. Nothing when it has none or the server has not welcomed it.
   */
  sendModels(): void {
    if (!this.connected || !this.welcomed) return;
    const models = this.driver?.models?.() ?? [];
    if (models.length === 0) return;
    for (let i = 0; i < models.length; i += LIMITS.maxModelsPerMessage) {
      void this.publish('models', { v: 1, models: models.slice(i, i + LIMITS.maxModelsPerMessage) }).catch(() => {});
    }
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

  requestChunks(): void {
    if (!this.connected) return;
    for (const r of this.pulls.nextRequests()) {
      this.driver?.chunkRequested?.(r, this.stats.connects);
      void this.publish('blobRequest', { v: 1, ...r }).catch(() => {});
    }
  }

  heartbeat(): void {
    sendHeartbeat(this);
  }

  startTimers(restart = false): void {
    if (restart || this.heartbeatTimer === null) {
      this.clearTimer('heartbeatTimer');
      this.heartbeatTimer = this.interval(this.heartbeatS * 1000, () => this.heartbeat());
    }
    if (restart || this.reportTimer === null) {
      this.clearTimer('reportTimer');
      this.reportTimer = this.interval(this.reportS * 1000, () => this.report());
    }
    if (this.sweepTimer === null) this.sweepTimer = this.interval(5000, () => sweep(this));
  }

  /** A tag report of what changed (every `reportS`; a full one every 10 minutes). */
  report(): void {
    sendReport(this, this.reports);
  }

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
