import {
  type AckEntry,
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
  type TagEntry,
  topics,
} from '@esl/contract/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import type { VirtualClock } from './clock';
import { checkIn, command, type Exchange, frameErrorRate, rssiAt, transferImage } from './radio/link';
import type { RadioProfile } from './radio/profiles';
import type { Random } from './random';
import { BlobPulls } from './station/blobs';
import { runCommand } from './station/commands';
import {
  checkFirmwareBlob,
  FIRMWARE_JOB_KINDS,
  type FirmwareFaults,
  type FirmwareJob,
  FirmwarePlan,
  isFirmwareJob,
} from './station/firmware';
import { imageMatches } from './station/images';
import { TagTable } from './station/tag-table';
import { SimTag, type TagSpec } from './tag';

/** How long a waking tag's CSMA backoff waits for a busy channel (a check-in, not a transfer), ms. */
const CSMA_WAIT_MS = 10;
/**
 * The most radio work a station lines up behind the current exchange for tags that checked in
 * meanwhile, ms. A transfer is not one continuous frame: between its frames (inter-frame spacing,
 * the 30 ms "please wait" of each block's preparation) a waking tag's check-in is heard and
 * answered with its data info, and its transfer then interleaves with the running ones — in
 * airtime the same as serving it after them. A tag waits about as long as it tries a block (5
 * tries of a 300 ms receive loop), so a longer line is not joined: the check-in goes unheard.
 */
export const LINE_MS = 1500;

/** A station to simulate: its identity on the broker and its tags. */

export interface StationSpec {
  tenantId: number;
  sn: string;
  /** The MQTT secret shown when the station was added. */
  secret: string;
  tags?: TagSpec[];
  channel?: number;
  model?: string;
  fw?: string;
  /** Radio-module firmware version it starts with. */
  moduleFw?: string;
  /** Takes firmware jobs (station, module, tag), with these faults if any (station/firmware.ts). */
  firmware?: FirmwareFaults | boolean;
  /** How far its own clock is off, ms (the server measures it from heartbeats). */
  clockSkewMs?: number;
  /** Its own flapping schedule, over the simulator's (`null`: this one does not flap). */
  flap?: FlapSpec | null;
}

/** Abrupt disconnects every `everyS ± jitterS`, each lasting `downS` (virtual seconds). */
export interface FlapSpec {
  everyS: number;
  jitterS: number;
  downS: number;
}

export interface StationOptions {
  /** The broker: `mqtt://host:port`, or `mqtts://host:port` for MQTT over TLS. */
  url: string;
  /**
   * For `mqtts://`: PEM certificates to trust instead of the system's (a private CA, or the
   * broker's own self-signed certificate). The broker's certificate is always verified.
   */
  ca?: string | Buffer;
  clock: VirtualClock;
  rng: Random;
  profile: RadioProfile;
  /** Extra frame loss on top of what the signal gives (0–1). */
  loss?: number;
  flap?: FlapSpec | null;
  /** Virtual ms before reconnecting after a lost connection (doubling on refusals, up to 5 min). */
  reconnectMs?: number;
  /** Jobs it holds at most (`caps.queue`). */
  queueSize?: number;
  /** Heartbeat and tag-report intervals until the server's config says otherwise, s (60, 30). */
  heartbeatS?: number;
  reportS?: number;
  /** Called after anything observable changed (the simulator's waitFor listens). */
  onChange?: () => void;
  /** Called with every jobs message as it arrives (benches time the server's publish by it). */
  onJobs?: (station: StationKey, jobs: readonly Job[]) => void;
  log?: (line: string) => void;
}

/** Job kinds the simulated station takes; firmware kinds come with the firmware work. */
const KINDS: JobKind[] = ['image', 'led', 'ping', 'tagcfg', 'rollcall'];

interface Held {
  job: Job;
  receivedAt: number;
  deadline: number;
  /** Image bytes once known (inline, or pulled as a blob). */
  bytes: Uint8Array | null;
  tries: number;
  running: boolean;
}

export interface StationStats {
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
  checkIns: number;
  missedCheckIns: number;
  /** Check-ins heard while the radio served others, their job served in line after them. */
  lined: number;
  transfers: number;
  retries: number;
  airMs: number;
}

const jobKey = (id: string, rev: number) => `${id}:${rev}`;

/**
 * A simulated base station: an MQTT client speaking the station protocol (docs/PROTOCOL.md) and a
 * radio serving simulated tags. Its tags keep waking and it keeps serving its queue while the
 * connection is down; results wait in its outbox (which survives reboots, like flash).
 */
export class SimStation {
  readonly key: StationKey;
  readonly username: string;
  readonly tags = new Map<string, SimTag>();
  readonly stats: StationStats = {
    connects: 0,
    refusals: 0,
    abruptLosses: 0,
    reboots: 0,
    sent: {},
    received: {},
    badDown: 0,
    acks: { ok: 0, refused: 0 },
    results: {},
    checkIns: 0,
    missedCheckIns: 0,
    lined: 0,
    transfers: 0,
    retries: 0,
    airMs: 0,
  };
  channel: number;
  connId = '';
  boot = 1;
  cfgRev = 0;
  heartbeatS: number = DEFAULTS.heartbeatS;
  reportS: number = DEFAULTS.reportS;
  /** The last configuration applied, WiFi password left out (write-only). */
  config: Omit<Message<'config'>, 'wifi'> & { wifi?: { ssid: string } } = {
    v: 1,
    cfgRev: 0,
    heartbeatS: DEFAULTS.heartbeatS,
    reportS: DEFAULTS.reportS,
  };
  /** Server time minus local time, learned from welcome and down/time. */
  offsetMs = 0;
  /** The last error the broker gave (e.g. a refused login). */
  lastError: string | null = null;
  readonly queue = new Map<string, Held>();
  /** Results not yet confirmed by down/resack, by `id:rev`. */
  readonly outbox = new Map<string, ResultEntry>();
  /** Lines the command window's `log tail` shows. */
  readonly logLines: string[] = [];
  /** Firmware it runs (hello reports it); an upgrade changes it at the restart. */
  readonly fw: { ap: string; module: string };
  /** Firmware support and its faults; null: firmware jobs are refused as unsupported. */
  readonly firmwarePlan: FirmwarePlan | null;
  private readonly kinds: readonly JobKind[];
  private readonly progressAt = new Map<string, number>();

  private client: MqttClient | null = null;
  private connected = false;
  private welcomed = false;
  /** false while rebooting: the radio hears nothing. */
  private powered = true;
  /** true after disconnect() until reconnect(): no automatic reconnects. */
  private held = false;
  private stopped = false;
  private readonly spec: StationSpec;
  private readonly opts: Required<
    Omit<StationOptions, 'flap' | 'onChange' | 'onJobs' | 'log' | 'heartbeatS' | 'reportS' | 'ca'>
  > &
    Pick<StationOptions, 'flap' | 'onJobs' | 'ca'>;
  private readonly heard = new TagTable();
  private readonly pulls = new BlobPulls(DEFAULTS.chunk);
  private readonly cmdSessions = new Map<string, { expiresAt: number; seq: number }>();
  /** Every timer this station set, so stop() can clear them. */
  private readonly timers = new Set<number>();
  private heartbeatTimer: number | null = null;
  private reportTimer: number | null = null;
  private sweepTimer: number | null = null;
  private reconnectTimer: number | null = null;
  private reconnectDelay: number;
  private seq = 0;
  private lastFullReport = 0;
  private bootedAt: number;
  private busyUntil = 0;
  private window = { start: 0, airMs: 0, services: 0 };
  private counters = { tx: 0, rx: 0, crcErr: 0 };
  private readonly net: { ip: string; mac: string; gw: string; mask: string };
  private flushScheduled = false;
  private pendingResults: ResultEntry[] = [];

  constructor(spec: StationSpec, options: StationOptions) {
    this.spec = spec;
    this.key = { tenantId: spec.tenantId, sn: spec.sn };
    this.username = stationUsername(this.key);
    this.opts = {
      url: options.url,
      clock: options.clock,
      rng: options.rng,
      profile: options.profile,
      loss: options.loss ?? 0,
      flap: (spec.flap === undefined ? options.flap : spec.flap) ?? null,
      reconnectMs: options.reconnectMs ?? 2000,
      queueSize: options.queueSize ?? 512,
      onJobs: options.onJobs,
      ca: options.ca,
    };
    this.onChange = options.onChange ?? (() => {});
    this.logSink = options.log ?? (() => {});
    this.reconnectDelay = this.opts.reconnectMs;
    this.heartbeatS = options.heartbeatS ?? DEFAULTS.heartbeatS;
    this.reportS = options.reportS ?? DEFAULTS.reportS;
    this.config = { ...this.config, heartbeatS: this.heartbeatS, reportS: this.reportS };
    const { rng, profile, clock } = this.opts;
    this.channel = spec.channel ?? profile.channels[rng.int(0, profile.channels.length - 1)];
    this.net = {
      ip: `192.168.${rng.int(0, 254)}.${rng.int(2, 254)}`,
      mac: Array.from({ length: 6 }, (_, i) => (i === 0 ? '24' : rng.hex(2))).join(':'),
      gw: '192.168.0.1',
      mask: '255.255.0.0',
    };
    this.bootedAt = clock.now();
    this.window.start = clock.now();
    this.fw = { ap: spec.fw ?? '1.0.0-sim', module: spec.moduleFw ?? '1.0.0-sim' };
    this.firmwarePlan = spec.firmware ? new FirmwarePlan(spec.firmware === true ? {} : spec.firmware) : null;
    this.kinds = this.firmwarePlan ? [...KINDS, ...FIRMWARE_JOB_KINDS] : KINDS;
    for (const t of spec.tags ?? []) this.addTag(t);
  }

  private readonly onChange: () => void;
  private readonly logSink: (line: string) => void;

  // ------------------------------------------------------------------------------------------
  // Lifecycle

  /** Connects (and keeps reconnecting); resolves at the first CONNACK or refusal. */
  start(): Promise<void> {
    this.scheduleFlap();
    return this.connect();
  }

  /** True between CONNACK and the connection's end. */
  get isConnected(): boolean {
    return this.connected;
  }

  /** True once the server answered this connection's hello. */
  get isWelcomed(): boolean {
    return this.welcomed;
  }

  /**
   * Sets how far its own clock is off from now on (a drifting or reset clock): `hello.time` and
   * `heartbeat.at` carry it, and its idea of server time is off by the change until the next
   * welcome or `down/time` corrects the offset.
   */
  setClockSkew(ms: number): void {
    this.spec.clockSkewMs = ms;
  }

  /** Changes the extra frame loss (0–1) from now on. */
  setLoss(loss: number): void {
    this.opts.loss = Math.max(0, Math.min(1, loss));
  }

  addTag(spec: TagSpec): SimTag {
    const tag = new SimTag(spec, this.opts.rng.fork(`tag ${spec.id}`));
    this.tags.set(tag.id, tag);
    // Each wake schedules the next one, so a new wake interval (tagcfg) applies from then on.
    const wake = () => {
      this.after(tag.wakeIntervalMs(), wake);
      this.onWake(tag);
    };
    this.after(tag.firstWakeMs(), wake);
    return tag;
  }

  /**
   * Drops the connection. `abrupt`: the socket just dies (the broker publishes the Will); else a
   * retained offline status and a clean DISCONNECT. It stays down until `reconnect()`.
   */
  async disconnect({ abrupt = false }: { abrupt?: boolean } = {}): Promise<void> {
    this.held = true;
    await this.drop(abrupt);
  }

  /** Connects again after `disconnect()` (or at once when down). */
  async reconnect(): Promise<void> {
    this.held = false;
    await this.dropping; // a drop still closing its socket finishes first
    if (this.connected || this.stopped) return;
    await this.connect();
  }

  /**
   * Restarts the station: the connection dies abruptly, its queue (unless `keepQueue`), blob
   * chunks and tag table are lost, the outbox and configuration survive; it is back after `downMs`.
   */
  async reboot({ keepQueue = false, downMs = 3000 }: { keepQueue?: boolean; downMs?: number } = {}): Promise<void> {
    this.stats.reboots++;
    this.powered = false;
    this.held = true;
    await this.drop(true);
    if (!keepQueue) this.queue.clear();
    this.pulls.clear();
    this.heard.clear();
    this.cmdSessions.clear();
    this.boot++;
    this.log(`reboot (boot ${this.boot})`);
    this.after(downMs, () => {
      this.powered = true;
      this.bootedAt = this.opts.clock.now();
      this.held = false;
      void this.connect();
    });
  }

  /** Publishes a retained offline status, disconnects cleanly, stops every timer. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const id of this.timers) this.opts.clock.clear(id);
    this.timers.clear();
    await this.drop(false);
  }

  // ------------------------------------------------------------------------------------------
  // MQTT

  private connect(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.clearTimer('reconnectTimer');
    this.connId = this.opts.rng.id(8);
    const will = encodeMessage('status', { v: 1, online: false, connId: this.connId, at: this.localNow() });
    const client = mqtt.connect(this.opts.url, {
      clientId: this.username,
      username: this.username,
      password: this.spec.secret,
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
    this.reconnectDelay = this.opts.reconnectMs;
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
    this.onChange();
  }

  private onClose(client: MqttClient): void {
    if (client !== this.client) return;
    const was = this.connected;
    this.connected = false;
    this.welcomed = false;
    this.client = null;
    this.pulls.lostConnection();
    if (was) this.log('connection lost');
    this.onChange();
    if (this.held || this.stopped) return;
    const delay = this.reconnectDelay * this.opts.rng.between(0.8, 1.2);
    if (!was) this.reconnectDelay = Math.min(this.reconnectDelay * 2, 300_000);
    this.reconnectTimer = this.after(delay, () => {
      this.reconnectTimer = null;
      if (!this.held && !this.connected) void this.connect();
    });
  }

  /** The drop in progress, if any (reconnect waits for it). */
  private dropping: Promise<void> = Promise.resolve();

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

  private async publish<K extends MessageName>(name: K, body: MessageInput<K>, client = this.client): Promise<void> {
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
      this.onChange();
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
    const m = decoded.message;
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
        for (const [id, rev] of (m as Message<'resack'>).ids) this.dropFromOutbox(id, rev);
        break;
      case 'config':
        this.onConfig(m as Message<'config'>);
        break;
      case 'cmd':
        this.onCmd(m as Message<'cmd'>);
        break;
      case 'time':
        // The server's clock: what its own clock is off by is corrected from here on.
        this.offsetMs = (m as Message<'time'>).t - this.localNow();
        break;
    }
    this.onChange();
  }

  // ------------------------------------------------------------------------------------------
  // Protocol

  private hello(): MessageInput<'hello'> {
    return {
      v: 1,
      connId: this.connId,
      boot: this.boot,
      model: this.spec.model ?? 'SIM-AP',
      fw: { ap: this.fw.ap, module: this.fw.module },
      radio: { profile: this.opts.profile.name, channel: this.channel, kbps: this.opts.profile.kbps },
      caps: {
        queue: this.opts.queueSize,
        queueBytes: 4 * 1024 * 1024,
        inlineMax: DEFAULTS.inlineMax,
        chunk: DEFAULTS.chunk,
        fwConcurrent: 1,
        kinds: [...this.kinds],
      },
      queue: [...this.queue.values()].map((h) => [h.job.id, h.job.rev] as [string, number]),
      outbox: this.outbox.size,
      net: { ...this.net, ntp: 'pool.ntp.org' },
      cfgRev: this.cfgRev,
      time: this.localNow(),
    };
  }

  private onWelcome(m: Message<'welcome'>): void {
    if (m.connId !== this.connId) return; // the answer to an older connection's hello
    this.welcomed = true;
    this.offsetMs = m.time - this.localNow();
    // Resend every result the server has not confirmed yet.
    this.pendingResults = [...this.outbox.values()];
    this.scheduleFlush();
    this.requestChunks();
  }

  private onJobs(m: Message<'jobs'>): void {
    this.opts.onJobs?.(this.key, m.jobs);
    const acks: AckEntry[] = [];
    const now = this.opts.clock.now();
    for (const job of m.jobs) {
      const held = this.queue.get(job.id);
      if (!this.kinds.includes(job.kind)) {
        acks.push({ id: job.id, rev: job.rev, ok: false, code: 'unsupported' });
        continue;
      }
      if (held && held.job.rev > job.rev) {
        acks.push({ id: job.id, rev: job.rev, ok: false, code: 'stale' });
        continue;
      }
      if (held && held.job.rev === job.rev) {
        acks.push({ id: job.id, rev: job.rev, ok: true }); // a duplicate: ack again, change nothing
        continue;
      }
      if (!held && this.queue.size >= this.opts.queueSize) {
        acks.push({ id: job.id, rev: job.rev, ok: false, code: 'full' });
        continue;
      }
      let bytes: Uint8Array | null = null;
      if (job.kind === 'image') {
        if (job.image.data !== undefined) {
          bytes = Buffer.from(job.image.data, 'base64');
          if (!imageMatches(bytes, job.image.hash)) {
            acks.push({ id: job.id, rev: job.rev, ok: false, code: 'invalid' });
            continue;
          }
        }
        // At most one image job per tag: a newer one (another id) replaces the queued one.
        for (const other of this.queue.values()) {
          if (other.job.id !== job.id && other.job.kind === 'image' && other.job.tag === job.tag && !other.running) {
            this.queue.delete(other.job.id);
            this.result(other.job, 'replaced', {});
          }
        }
      }
      // A transfer of the older rev already running finishes and reports for that rev; this one waits.
      this.queue.set(job.id, {
        job,
        receivedAt: now,
        deadline: now + job.ttlS * 1000,
        bytes,
        tries: 0,
        running: false,
      });
      acks.push({ id: job.id, rev: job.rev, ok: true });
      if (job.kind === 'image' && bytes === null) {
        this.pulls.start(job.image.hash, job.image.size);
        this.requestChunks();
      }
      if (job.kind === 'rollcall') this.rollCall(job);
      if (isFirmwareJob(job)) {
        this.log(`firmware ${job.kind} ${job.fw.version}: pulling ${job.fw.size} bytes`);
        this.pulls.start(job.fw.hash, job.fw.size);
        this.requestChunks();
      }
    }
    for (const a of acks) a.ok ? this.stats.acks.ok++ : this.stats.acks.refused++;
    for (let i = 0; i < acks.length; i += LIMITS.maxAcksPerMessage) {
      void this.publish('ack', { v: 1, jobs: acks.slice(i, i + LIMITS.maxAcksPerMessage) }).catch(() => {});
    }
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
    if (m.radio) this.channel = m.radio.channel;
    const timersChanged = m.heartbeatS !== this.heartbeatS || m.reportS !== this.reportS;
    this.heartbeatS = m.heartbeatS;
    this.reportS = m.reportS;
    if (timersChanged) this.startTimers(true);
    this.log(`config rev ${m.cfgRev} applied${wifi ? ` (wifi ${wifi.ssid})` : ''}`);
    // Report the applied revision at once, as firmware would, rather than a heartbeat later.
    this.heartbeat();
  }

  private onCmd(m: Message<'cmd'>): void {
    const now = this.opts.clock.now();
    if (m.open) this.cmdSessions.set(m.session, { expiresAt: now + m.open.ttlS * 1000, seq: 0 });
    const session = this.cmdSessions.get(m.session);
    if (session && session.expiresAt < now) this.cmdSessions.delete(m.session);
    const out = (text: string, exit?: number) => {
      const s = this.cmdSessions.get(m.session) ?? { expiresAt: now, seq: 0 };
      void this.publish('cmdOutput', { v: 1, session: m.session, seq: s.seq++, out: text, exit }).catch(() => {});
    };
    if (m.line !== undefined) {
      if (!this.cmdSessions.has(m.session)) {
        out('no open session\n', 1);
      } else {
        this.log(`cmd: ${m.line}`);
        const r = runCommand(m.line, {
          uptimeS: this.uptimeS(),
          queue: this.queue.size,
          outbox: this.outbox.size,
          channel: this.channel,
          channels: this.opts.profile.channels,
          tagsHeard: this.heard.countPresent(this.serverNow()),
          localNow: this.localNow(),
          logLines: this.logLines,
          noiseDbm: () => this.opts.rng.normal(-96, 3),
        });
        out(r.out, r.exit);
        if (r.reboot) this.after(100, () => void this.reboot({ keepQueue: true }));
      }
    }
    if (m.close) this.cmdSessions.delete(m.session);
  }

  /** Answers from the tag table, without airtime: present = heard within twice its wake interval. */
  private rollCall(job: Job): void {
    const now = this.serverNow();
    this.queue.delete(job.id);
    const entries = [...this.tags.values()].map((tag) => ({ tag: tag.id, present: this.heard.present(tag.id, now) }));
    if (entries.length === 0) this.result(job, 'ok', {});
    for (const e of entries) this.result(job, 'ok', { tag: e.tag, present: e.present });
  }

  private result(job: Job, code: ResultCode, extra: Partial<ResultEntry>): void {
    const entry: ResultEntry = { id: job.id, rev: job.rev, code, at: this.serverNow(), ...extra };
    if ('tag' in job && job.tag && entry.tag === undefined) entry.tag = job.tag;
    // A roll call has many entries per [id, rev]; the outbox keeps them all under one key.
    const key = entry.present === undefined ? jobKey(job.id, job.rev) : `${jobKey(job.id, job.rev)}:${entry.tag}`;
    this.outbox.set(key, entry);
    this.stats.results[code] = (this.stats.results[code] ?? 0) + 1;
    this.pendingResults.push(entry);
    this.scheduleFlush();
    this.onChange();
  }

  private dropFromOutbox(id: string, rev: number): void {
    const key = jobKey(id, rev);
    for (const k of [...this.outbox.keys()]) if (k === key || k.startsWith(`${key}:`)) this.outbox.delete(k);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      if (!this.connected || !this.welcomed) return; // resent from the outbox after welcome
      const batch = this.pendingResults.splice(0);
      for (let i = 0; i < batch.length; i += LIMITS.maxResultsPerMessage) {
        void this.publish('result', { v: 1, results: batch.slice(i, i + LIMITS.maxResultsPerMessage) }).catch(() => {});
      }
    });
  }

  // ------------------------------------------------------------------------------------------
  // Blobs

  private requestChunks(): void {
    if (!this.connected) return;
    for (const r of this.pulls.nextRequests()) {
      this.firmwarePlan?.requested.push({ hash: r.hash, offset: r.offset, connect: this.stats.connects });
      void this.publish('blobRequest', { v: 1, ...r }).catch(() => {});
    }
  }

  private onBlobChunk(hash: string, offset: number, payload: Buffer): void {
    const plan = this.firmwarePlan;
    const bytes = plan ? plan.chunk(offset, new Uint8Array(payload)) : new Uint8Array(payload);
    const blob = this.pulls.receive(hash, offset, bytes);
    if (plan) {
      if (this.onFirmwareChunk(plan, hash, blob)) return;
    }
    if (blob) {
      const good = imageMatches(blob, hash);
      for (const held of [...this.queue.values()]) {
        if (held.job.kind !== 'image' || held.job.image.hash !== hash) continue;
        if (good) {
          held.bytes = blob;
        } else {
          this.queue.delete(held.job.id);
          this.result(held.job, 'badBlob', {});
        }
      }
    }
    this.requestChunks();
  }

  // ------------------------------------------------------------------------------------------
  // Radio

  private onWake(tag: SimTag, backedOff = false): void {
    if (!backedOff) tag.spend(0);
    const now = this.opts.clock.now();
    if (this.powered && !backedOff && this.busyUntil > now && this.busyUntil - now <= CSMA_WAIT_MS) {
      // The channel is busy with another tag's check-in: like 802.15.4 CSMA-CA, the tag backs off
      // a moment and tries once more, so two tags whose wakes coincide do not shadow each other
      // at every wake for ever.
      this.after(this.busyUntil - now + this.opts.rng.between(0, 2), () => this.onWake(tag, true));
      return;
    }
    // Busy with other tags: a tag with a job ready here joins the line when it is short enough
    // (LINE_MS); any other check-in, or one while rebooting, goes unheard.
    const line = this.powered && this.busyUntil > now && this.busyUntil - now <= LINE_MS && this.ready(tag) !== null;
    if (!this.powered || (this.busyUntil > now && !line)) {
      tag.missedCheckIns++;
      this.stats.missedCheckIns++;
      return;
    }
    if (line) this.stats.lined++;
    const { profile, rng, loss } = this.opts;
    const rssi = rssiAt(profile, tag.distanceM(), tag.shadowDb) + rng.normal(0, 1);
    const per = frameErrorRate(profile, rssi, loss);
    const ci = checkIn(profile, per, rng);
    this.spend(ci);
    if (!ci.ok) {
      tag.missedCheckIns++;
      this.stats.missedCheckIns++;
      return;
    }
    this.stats.checkIns++;
    tag.missedCheckIns = 0;
    const entry: TagEntry = {
      id: tag.id,
      rssi: Math.round(rssi),
      lqi: Math.max(0, Math.min(255, Math.round(255 * (1 - per)))),
      battMv: Math.round(tag.battMv),
      temp: tag.temperature(now),
      ver: tag.ver,
      fw: tag.fw,
      hw: tag.hw,
      wakeS: tag.wakeS,
      seenAt: this.serverNow(),
      reason: tag.reason,
    };
    this.heard.record(entry);
    tag.reason = 'timer';
    this.serve(tag, per);
    this.onChange();
  }

  /** The most urgent job ready for a tag, if any. */
  private ready(tag: SimTag): Held | null {
    let best: Held | null = null;
    for (const h of this.queue.values()) {
      if (h.running || !('tag' in h.job) || h.job.tag !== tag.id) continue;
      if ((h.job.kind === 'image' || h.job.kind === 'tagfw') && h.bytes === null) continue;
      if (!best || h.job.prio < best.job.prio) best = h;
    }
    return best;
  }

  /** Serves the most urgent job ready for a tag that just checked in (in line behind others when busy). */
  private serve(tag: SimTag, per: number): void {
    const held = this.ready(tag);
    if (!held) return;
    const job = held.job;
    const { profile, rng } = this.opts;
    if (job.kind === 'image') {
      if (!job.force && tag.ver === job.image.ver) {
        this.finish(held, 'skipped', { ver: tag.ver, rssi: this.heard.get(tag.id)?.rssi });
        return;
      }
      if (tag.refusesForBattery()) {
        // The tag answers the transfer's first frame with a refusal: a command's airtime.
        const ex = command(profile, per, rng);
        this.spend(ex);
        if (ex.ok) this.finish(held, 'lowBattery', { airMs: Math.round(ex.airMs), rssi: this.heard.get(tag.id)?.rssi });
        return;
      }
      const bytes = held.bytes as Uint8Array;
      const ex = transferImage(profile, bytes.length, per, rng);
      // In line behind other tags' exchanges, it ends when the line before it and its own airtime did.
      const startsIn = Math.max(0, this.busyUntil - this.opts.clock.now());
      this.spend(ex);
      held.running = true;
      held.tries++;
      this.stats.retries += ex.retries;
      this.after(startsIn + ex.airMs, () => {
        held.running = false;
        tag.spend(ex.airMs);
        if (!ex.ok) {
          if (held.tries >= 3) this.finish(held, 'nack', { tries: held.tries, airMs: Math.round(ex.airMs) });
          return;
        }
        this.stats.transfers++;
        const got = tag.receive(bytes);
        // The transfer-complete frame told the station what the tag holds now: report it next.
        if (got.ok) this.heard.confirm(tag.id, got.screen.ver, this.serverNow());
        const extra = { tries: held.tries, airMs: Math.round(ex.airMs), rssi: this.heard.get(tag.id)?.rssi };
        if (got.ok) this.finish(held, 'ok', { ...extra, ver: got.screen.ver }, job);
        else this.finish(held, got.reason, extra, job);
      });
      return;
    }
    if (job.kind === 'tagfw') {
      this.serveTagFirmware(tag, held, job, per);
      return;
    }
    const ex = command(profile, per, rng);
    this.spend(ex);
    if (!ex.ok) return; // tried again at the next check-in, until the TTL
    if ((job.kind === 'led' || job.kind === 'ping') && job.led) tag.flash(job.led);
    if (job.kind === 'tagcfg' && job.cfg.wakeS) tag.wakeS = job.cfg.wakeS;
    this.finish(held, 'ok', { airMs: Math.round(ex.airMs) });
  }

  // ------------------------------------------------------------------------------------------
  // Firmware

  /**
   * A firmware chunk arrived (or the pull ended): progress, the disconnect fault, and with the
   * whole file its check, then the install (station, module) or keeping it for the tag. True when
   * the connection was dropped on purpose (nothing more to do for this chunk).
   */
  private onFirmwareChunk(plan: FirmwarePlan, hash: string, blob: Uint8Array | null): boolean {
    const jobs = [...this.queue.values()].filter(
      (h): h is Held & { job: FirmwareJob } => isFirmwareJob(h.job) && h.job.fw.hash === hash,
    );
    if (jobs.length === 0) return false;
    const size = jobs[0].job.fw.size;
    const have = blob ? size : this.pulls.have(hash);
    const now = this.opts.clock.now();
    for (const h of jobs) {
      const last = this.progressAt.get(h.job.id);
      if (blob || last === undefined || now - last >= 1000) {
        this.progressAt.set(h.job.id, now);
        void this.publish('progress', { v: 1, id: h.job.id, rev: h.job.rev, done: have, total: size }).catch(() => {});
      }
    }
    if (!blob) {
      if (plan.disconnectNow(have, size)) {
        this.log(`firmware pull: connection lost at ${have} of ${size} bytes`);
        void this.disconnect({ abrupt: true }).then(() => {
          this.after(this.opts.reconnectMs, () => void this.reconnect());
        });
        return true;
      }
      return false;
    }
    const header = checkFirmwareBlob(blob, hash);
    for (const h of jobs) {
      this.progressAt.delete(h.job.id);
      const expected = h.job.kind === 'apfw' ? 'station' : h.job.kind === 'modulefw' ? 'module' : 'tag';
      if (!header || header.kind !== expected || header.version !== h.job.fw.version) {
        this.log(`firmware ${h.job.fw.version}: the file did not check out`);
        this.queue.delete(h.job.id);
        this.result(h.job, 'badBlob', {});
        continue;
      }
      if (h.job.kind === 'tagfw') {
        h.bytes = blob;
        continue;
      }
      this.installStationFirmware(plan, h.job);
    }
    this.requestChunks();
    return false;
  }

  /** Verified: reports ok, restarts, and comes back on the new version (or the old one, rolled back). */
  private installStationFirmware(plan: FirmwarePlan, job: FirmwareJob): void {
    this.queue.delete(job.id);
    this.result(job, 'ok', {});
    const which = job.kind === 'apfw' ? 'ap' : 'module';
    this.log(`firmware ${job.fw.version}: verified, installing`);
    this.after(500, () => {
      if (plan.faults.rollBack) this.log(`firmware ${job.fw.version}: failed to start, rolled back`);
      else this.fw[which] = job.fw.version;
      void this.reboot({ keepQueue: true });
    });
  }

  /** Sends a verified tag firmware over the air; the tag runs it (unless it rolls back). */
  private serveTagFirmware(tag: SimTag, held: Held, job: FirmwareJob, per: number): void {
    const { profile, rng } = this.opts;
    const bytes = held.bytes as Uint8Array;
    const ex = transferImage(profile, bytes.length, per, rng);
    this.spend(ex);
    held.running = true;
    held.tries++;
    this.stats.retries += ex.retries;
    this.after(ex.airMs, () => {
      held.running = false;
      tag.spend(ex.airMs);
      if (!ex.ok) {
        if (held.tries >= 3) this.finish(held, 'nack', { tries: held.tries, airMs: Math.round(ex.airMs) });
        return;
      }
      this.stats.transfers++;
      if (!this.firmwarePlan?.rollsBackTag(tag.id)) tag.fw = job.fw.version;
      this.log(`tag ${tag.id}: firmware ${job.fw.version} transferred`);
      this.finish(held, 'ok', { tries: held.tries, airMs: Math.round(ex.airMs) });
    });
  }

  /** Ends a job with a result; when a newer rev arrived meanwhile, that one stays queued. */
  private finish(held: Held, code: ResultCode, extra: Partial<ResultEntry>, ran: Job = held.job): void {
    const current = this.queue.get(ran.id);
    if (current && current.job.rev === ran.rev) this.queue.delete(ran.id);
    this.result(ran, code, extra);
  }

  private spend(ex: Exchange): void {
    const now = this.opts.clock.now();
    this.busyUntil = Math.max(this.busyUntil, now) + ex.airMs;
    this.window.airMs += ex.airMs;
    this.window.services++;
    this.stats.airMs += ex.airMs;
    this.counters.tx += Math.ceil(ex.frames / 2);
    this.counters.rx += Math.floor(ex.frames / 2) - Math.min(ex.lost, Math.floor(ex.frames / 2));
    this.counters.crcErr += ex.lost;
  }

  // ------------------------------------------------------------------------------------------
  // Heartbeat and tag reports

  private startTimers(restart = false): void {
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

  private heartbeat(): void {
    if (!this.connected) return;
    const now = this.opts.clock.now();
    const spanMs = Math.max(1, now - this.window.start);
    const busyPct = Math.min(100, (100 * this.window.airMs) / spanMs);
    const svcPerS = (1000 * this.window.services) / spanMs;
    this.window = { start: now, airMs: 0, services: 0 };
    const { rng } = this.opts;
    const queueBytes = [...this.queue.values()].reduce((s, h) => s + (h.bytes?.length ?? 0), 0);
    void this.publish('heartbeat', {
      v: 1,
      at: this.localNow(),
      uptimeS: this.uptimeS(),
      cpu: round1(Math.min(100, 4 + busyPct * 0.3 + rng.between(0, 3))),
      mem: round1(Math.min(100, 28 + (40 * this.queue.size) / this.opts.queueSize + rng.between(0, 2))),
      disk: round1(Math.min(100, 12 + this.outbox.size / 100)),
      queue: { jobs: this.queue.size, bytes: queueBytes },
      radio: {
        busyPct: round1(busyPct),
        svcPerS: round1(svcPerS * 10) / 10,
        tx: this.counters.tx,
        rx: this.counters.rx,
        crcErr: this.counters.crcErr,
        noiseDbm: Math.round(rng.normal(-96, 2)),
      },
      tagsHeard: this.heard.countPresent(this.serverNow()),
      cfgRev: this.cfgRev,
    }).catch(() => {});
  }

  /**
   * Tags that changed since they were last reported, plus tags heard again whose last report is
   * older than twice their wake interval (so the server always knows they are alive); every
   * tag heard recently at least every 10 minutes (`full`).
   */
  private report(): void {
    if (!this.connected) return;
    const now = this.opts.clock.now();
    const full = now - this.lastFullReport >= DEFAULTS.fullReportS * 1000;
    const due = this.heard.takeDue(now, this.serverNow(), full);
    if (full) this.lastFullReport = now;
    if (due.length === 0 && !full) return;
    for (let i = 0; i < Math.max(1, due.length); i += LIMITS.maxTagsPerReport) {
      const tags = due.slice(i, i + LIMITS.maxTagsPerReport);
      void this.publish('tags', { v: 1, seq: this.seq++, at: this.serverNow(), full, tags }).catch(() => {});
    }
  }

  /**
   * Jobs whose TTL passed end as `timeout`, or `unknownTag` when this station never heard the tag
   * (the server re-routes those); command sessions expire.
   */
  private sweep(): void {
    const now = this.opts.clock.now();
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
  // Knobs and helpers

  private scheduleFlap(): void {
    const flap = this.opts.flap;
    if (!flap) return;
    const next = (flap.everyS + this.opts.rng.between(-flap.jitterS, flap.jitterS)) * 1000;
    this.after(Math.max(1000, next), () => {
      this.log('flap: connection dropped');
      void this.disconnect({ abrupt: true });
      this.after(flap.downS * 1000, () => {
        void this.reconnect();
        this.scheduleFlap();
      });
    });
  }

  /** Local clock (with the station's skew). */
  localNow(): number {
    return this.opts.clock.now() + (this.spec.clockSkewMs ?? 0);
  }

  /** Local clock corrected by what the server said its time is. */
  serverNow(): number {
    return this.localNow() + this.offsetMs;
  }

  private uptimeS(): number {
    return Math.floor((this.opts.clock.now() - this.bootedAt) / 1000);
  }

  private log(line: string): void {
    const text = `${new Date(this.serverNow()).toISOString()} ${line}`;
    this.logLines.push(text);
    if (this.logLines.length > 500) this.logLines.splice(0, this.logLines.length - 500);
    this.logSink(`[${this.username}] ${line}`);
  }

  private after(ms: number, fn: () => void): number {
    const id = this.opts.clock.setTimeout(() => {
      this.timers.delete(id);
      if (!this.stopped) fn();
    }, ms);
    this.timers.add(id);
    return id;
  }

  private interval(ms: number, fn: () => void): number {
    const id = this.opts.clock.setInterval(() => {
      if (!this.stopped) fn();
    }, ms);
    this.timers.add(id);
    return id;
  }

  private clearTimer(name: 'heartbeatTimer' | 'reportTimer' | 'sweepTimer' | 'reconnectTimer'): void {
    const id = this[name];
    if (id === null) return;
    this.opts.clock.clear(id);
    this.timers.delete(id);
    this[name] = null;
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;
