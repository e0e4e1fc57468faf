import type { Job, JobKind, Message, ResultEntry, StationKey } from '@esl/contract/protocol';
import { type HeldJob, type StationDriver, StationLink } from '@esl/station';
import type { VirtualClock } from './clock';
import type { RadioProfile } from './radio/profiles';
import type { Random } from './random';
import { runCommand } from './station/commands';
import { FIRMWARE_JOB_KINDS, type FirmwareFaults, FirmwarePlan } from './station/firmware';
import { FirmwareJobs } from './station/firmware-jobs';
import { SimRadio } from './station/radio';
import { newStationStats, type StationStats } from './station/stats';
import { SimTag, type TagSpec } from './tag';

export { LINE_MS } from './station/radio';
export type { StationStats } from './station/stats';

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
const KINDS: JobKind[] = ['image', 'led', 'ping', 'tagcfg', 'rollcall', 'timed', 'page', 'nfc'];

/**
 * A simulated base station: the protocol side is `@esl/station`'s StationLink (MQTT, queue,
 * outbox, reports); this class adds a radio serving simulated tags. Its tags keep waking and it
 * keeps serving its queue while the connection is down; results wait in its outbox (which
 * survives reboots, like flash).
 */
export class SimStation {
  readonly key: StationKey;
  readonly username: string;
  readonly tags = new Map<string, SimTag>();
  readonly stats: StationStats = newStationStats();
  channel: number;
  /** Firmware it runs (hello reports it); an upgrade changes it at the restart. */
  readonly fw: { ap: string; module: string };
  /** Firmware support and its faults; null: firmware jobs are refused as unsupported. */
  readonly firmwarePlan: FirmwarePlan | null;
  private readonly kinds: readonly JobKind[];
  private readonly link: StationLink;
  private readonly radio: SimRadio;
  private readonly firmware: FirmwareJobs | null;
  private readonly spec: StationSpec;
  private readonly profile: RadioProfile;
  private readonly rng: Random;
  private readonly flap: FlapSpec | null;
  private readonly net: { ip: string; mac: string; gw: string; mask: string };
  private readonly settings: { profile: RadioProfile; rng: Random; loss: number };

  constructor(spec: StationSpec, options: StationOptions) {
    this.spec = spec;
    this.profile = options.profile;
    this.rng = options.rng;
    this.flap = (spec.flap === undefined ? options.flap : spec.flap) ?? null;
    this.link = new StationLink(spec, {
      url: options.url,
      ca: options.ca,
      clock: options.clock,
      rng: options.rng,
      reconnectMs: options.reconnectMs,
      queueSize: options.queueSize,
      heartbeatS: options.heartbeatS,
      reportS: options.reportS,
      stats: this.stats,
      skewMs: () => this.spec.clockSkewMs ?? 0,
      onChange: options.onChange,
      onJobs: options.onJobs,
      log: options.log,
    });
    this.key = this.link.key;
    this.username = this.link.username;
    const { rng, profile } = options;
    this.channel = spec.channel ?? profile.channels[rng.int(0, profile.channels.length - 1)];
    this.net = {
      ip: `192.168.${rng.int(0, 254)}.${rng.int(2, 254)}`,
      mac: Array.from({ length: 6 }, (_, i) => (i === 0 ? '24' : rng.hex(2))).join(':'),
      gw: '192.168.0.1',
      mask: '255.255.0.0',
    };
    this.fw = { ap: spec.fw ?? '1.0.0-sim', module: spec.moduleFw ?? '1.0.0-sim' };
    this.firmwarePlan = spec.firmware ? new FirmwarePlan(spec.firmware === true ? {} : spec.firmware) : null;
    this.kinds = this.firmwarePlan ? [...KINDS, ...FIRMWARE_JOB_KINDS] : KINDS;
    this.settings = { profile, rng, loss: options.loss ?? 0 };
    this.radio = new SimRadio(
      this.link,
      this.stats,
      this.settings,
      () => this.firmwarePlan,
      () => this.tags,
    );
    this.firmware = this.firmwarePlan
      ? new FirmwareJobs(this.link, this.firmwarePlan, () => void this.reboot({ keepQueue: true }), this.fw)
      : null;
    this.link.driver = this.driver();
    for (const t of spec.tags ?? []) this.addTag(t);
  }

  /** The downward half the link calls: hello and heartbeat figures, commands, firmware. */
  private driver(): StationDriver {
    const firmware = this.firmware;
    const plan = this.firmwarePlan;
    return {
      kinds: () => this.kinds,
      hello: () => ({
        model: this.spec.model ?? 'SIM-AP',
        fw: { ap: this.fw.ap, module: this.fw.module },
        radio: { profile: this.profile.name, channel: this.channel, kbps: this.profile.kbps },
        net: { ...this.net, ntp: 'pool.ntp.org' },
      }),
      heartbeat: () => this.radio.heartbeat(),
      command: (line) => this.command(line),
      configured: (m: Message<'config'>) => {
        if (m.radio) this.channel = m.radio.channel;
      },
      rollCallTags: () => [...this.tags.keys()],
      withdraw: (id: string, rev: number) => this.radio.timed.withdraw(id, rev),
      ...(firmware && plan
        ? {
            queued: (held: HeldJob) => firmware.queued(held),
            chunk: (offset: number, bytes: Uint8Array) => plan.chunk(offset, bytes),
            blob: (hash: string, blob: Uint8Array | null) => firmware.onChunk(hash, blob),
            chunkRequested: (r: { hash: string; offset: number }, connect: number) => {
              plan.requested.push({ hash: r.hash, offset: r.offset, connect });
            },
          }
        : {}),
    };
  }

  private command(line: string): { out: string; exit: number } {
    const link = this.link;
    const r = runCommand(line, {
      uptimeS: link.uptimeS(),
      queue: link.queue.size,
      outbox: link.outbox.size,
      channel: this.channel,
      channels: this.profile.channels,
      tagsHeard: link.heard.countPresent(link.serverNow()),
      localNow: link.localNow(),
      logLines: link.logLines,
      noiseDbm: () => this.rng.normal(-96, 3),
    });
    if (r.reboot) link.after(100, () => void this.reboot({ keepQueue: true }));
    return { out: r.out, exit: r.exit };
  }

  // ------------------------------------------------------------------------------------------
  // What the link knows, as before the split

  get connId(): string {
    return this.link.connId;
  }
  get boot(): number {
    return this.link.boot;
  }
  get cfgRev(): number {
    return this.link.cfgRev;
  }
  get heartbeatS(): number {
    return this.link.heartbeatS;
  }
  get reportS(): number {
    return this.link.reportS;
  }
  /** The last configuration applied, WiFi password left out (write-only). */
  get config(): StationLink['config'] {
    return this.link.config;
  }
  /** Server time minus local time, learned from welcome and down/time. */
  get offsetMs(): number {
    return this.link.offsetMs;
  }
  /** The last error the broker gave (e.g. a refused login). */
  get lastError(): string | null {
    return this.link.lastError;
  }
  get queue(): Map<string, HeldJob> {
    return this.link.queue;
  }
  /** Results not yet confirmed by down/resack, by `id:rev`. */
  get outbox(): Map<string, ResultEntry> {
    return this.link.outbox;
  }
  /** Lines the command window's `log tail` shows. */
  get logLines(): string[] {
    return this.link.logLines;
  }
  /** True between CONNACK and the connection's end. */
  get isConnected(): boolean {
    return this.link.isConnected;
  }
  /** True once the server answered this connection's hello. */
  get isWelcomed(): boolean {
    return this.link.isWelcomed;
  }

  // ------------------------------------------------------------------------------------------
  // Lifecycle

  /** Connects (and keeps reconnecting); resolves at the first CONNACK or refusal. */
  start(): Promise<void> {
    this.scheduleFlap();
    return this.link.start();
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
    this.settings.loss = Math.max(0, Math.min(1, loss));
  }

  addTag(spec: TagSpec): SimTag {
    const tag = new SimTag(spec, this.rng.fork(`tag ${spec.id}`));
    this.tags.set(tag.id, tag);
    // Each wake schedules the next one, so a new wake interval (tagcfg) applies from then on.
    const wake = () => {
      // A tag taken away (removeTag) wakes no more here.
      if (this.tags.get(tag.id) !== tag) return;
      this.link.after(tag.wakeIntervalMs(), wake);
      this.radio.onWake(tag);
    };
    this.link.after(tag.firstWakeMs(), wake);
    return tag;
  }

  /**
   * Presses a tag's button (docs/PAGES.md): it shows its next page, back to page 1 after its stay
   * time, and checks in at once. False when the tag is not here or holds one page.
   */
  pressButton(id: string): boolean {
    const tag = this.tags.get(id);
    return tag ? this.radio.press(tag) : false;
  }

  /** Takes a tag out of this station's range (carried away): it is heard here no more. */
  removeTag(id: string): SimTag | null {
    const tag = this.tags.get(id) ?? null;
    this.tags.delete(id);
    return tag;
  }

  /**
   * Drops the connection. `abrupt`: the socket just dies (the broker publishes the Will); else a
   * retained offline status and a clean DISCONNECT. It stays down until `reconnect()`.
   */
  disconnect(options: { abrupt?: boolean } = {}): Promise<void> {
    return this.link.disconnect(options);
  }

  /** Connects again after `disconnect()` (or at once when down). */
  reconnect(): Promise<void> {
    return this.link.reconnect();
  }

  /**
   * Restarts the station: the connection dies abruptly, its queue (unless `keepQueue`), blob
   * chunks and tag table are lost, the outbox and configuration survive; it is back after `downMs`.
   */
  reboot({ keepQueue = false, downMs = 3000 }: { keepQueue?: boolean; downMs?: number } = {}): Promise<void> {
    this.radio.powered = false;
    return this.link.restart({
      keepQueue,
      downMs,
      up: () => {
        this.radio.powered = true;
      },
    });
  }

  /** Publishes a retained offline status, disconnects cleanly, stops every timer. */
  stop(): Promise<void> {
    return this.link.stop();
  }

  private scheduleFlap(): void {
    const flap = this.flap;
    if (!flap) return;
    const next = (flap.everyS + this.rng.between(-flap.jitterS, flap.jitterS)) * 1000;
    this.link.after(Math.max(1000, next), () => {
      this.link.log('flap: connection dropped');
      void this.disconnect({ abrupt: true });
      this.link.after(flap.downS * 1000, () => {
        void this.reconnect();
        this.scheduleFlap();
      });
    });
  }

  /** Local clock (with the station's skew). */
  localNow(): number {
    return this.link.localNow();
  }

  /** Local clock corrected by what the server said its time is. */
  serverNow(): number {
    return this.link.serverNow();
  }
}
