import type { Job, JobKind, LearnedModel, MessageInput } from '@esl/contract/protocol';
import { decodeTagImage } from '@esl/labels';
import {
  type Clock,
  type CommandOutput,
  type HeldJob,
  mathRandom,
  type Rng,
  realClock,
  type StationDriver,
  type StationIdentity,
  StationLink,
} from '@esl/station';
import type { AccessPointAdapter, AdapterHealth, TagOutcome } from './adapter';
import { OeplAccessPoint, type OeplOptions } from './oepl/ap';

export interface BridgeOptions {
  /** The broker, `mqtt://` or `mqtts://`. */
  url: string;
  ca?: string | Buffer;
  station: StationIdentity;
  /** The access points' addresses, `http://HOST[:PORT]`. */
  aps: string[];
  clock?: Clock;
  rng?: Rng;
  /** Per-AP delivery settings (pacing, tries, waits). */
  oepl?: Partial<Omit<OeplOptions, 'url' | 'clock' | 'log' | 'onChange' | 'serverNow'>>;
  log?: (line: string) => void;
  /** Called after anything observable changed (tests wait on it). */
  onChange?: () => void;
}

/** Job kinds a bridge to OEPL access points takes (no tag wake settings, no firmware, no pages). */
const KINDS: JobKind[] = ['image', 'led', 'ping', 'rollcall', 'nfc'];

/**
 * A bridge: one of our stations upward (`@esl/station`), access points downward. Jobs are handed
 * to the AP serving their tag as soon as it may take them; the AP's tag records become our tag
 * reports, its health our heartbeat.
 */
export class Bridge {
  readonly link: StationLink;
  readonly aps: AccessPointAdapter[];
  /** Tags whose delivery is being started (the adapter checks `busy` only once it is in flight). */
  private readonly starting = new Set<string>();
  private readonly window = { start: 0, done: 0 };
  private readonly counters = { tx: 0, rx: 0 };
  /** The learned model keys last sent in `up/models` (a new one is sent at once). */
  private modelsSent = '';

  constructor(private readonly options: BridgeOptions) {
    const clock = options.clock ?? realClock();
    this.link = new StationLink(options.station, {
      url: options.url,
      ca: options.ca,
      clock,
      rng: options.rng ?? mathRandom,
      onChange: options.onChange,
      log: options.log,
    });
    this.aps = options.aps.map(
      (url) =>
        new OeplAccessPoint({
          ...options.oepl,
          url,
          clock,
          serverNow: () => this.link.serverNow(),
          log: (line) => this.link.log(line),
          onChange: () => this.changed(),
        }),
    );
    this.window.start = clock.now();
    this.link.driver = this.driver();
  }

  async start(): Promise<void> {
    await Promise.all(this.aps.map((ap) => ap.start()));
    this.record();
    // Pacing and an AP coming back free slots without an event: look for work twice a second.
    this.link.interval(500, () => this.work());
    await this.link.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.aps.map((ap) => ap.stop()));
    await this.link.stop();
  }

  private changed(): void {
    this.record();
    this.learned();
    this.work();
    this.options.onChange?.();
  }

  /** Every model learned from the APs' tag types, each key once. */
  models(): LearnedModel[] {
    const byKey = new Map<string, LearnedModel>();
    for (const ap of this.aps) for (const m of ap.models()) if (!byKey.has(m.key)) byKey.set(m.key, m);
    return [...byKey.values()];
  }

  /** A type learned since the last `up/models`: the server hears of it before its tags' reports. */
  private learned(): void {
    const keys = this.models()
      .map((m) => m.key)
      .sort()
      .join(',');
    if (keys === this.modelsSent || !this.link.isWelcomed) return;
    this.modelsSent = keys;
    this.link.sendModels();
  }

  /** The APs' tags into the link's tag table (the reports carry what changed). */
  private record(): void {
    for (const ap of this.aps) for (const e of ap.tagEntries()) this.link.heard.record(e);
  }

  private apFor(tag: string): AccessPointAdapter | undefined {
    return this.aps.find((ap) => ap.has(tag));
  }

  private driver(): StationDriver {
    return {
      kinds: () => KINDS,
      hello: () => this.hello(),
      heartbeat: () => this.heartbeat(),
      command: (line) => this.command(line),
      work: () => this.work(),
      rollCallTags: () => this.aps.flatMap((ap) => ap.tagEntries().map((e) => e.id)),
      models: () => this.models(),
      welcomed: () => {
        this.modelsSent = this.models()
          .map((m) => m.key)
          .sort()
          .join(',');
      },
    };
  }

  private hello(): Pick<MessageInput<'hello'>, 'model' | 'fw' | 'radio' | 'net'> {
    const h = this.aps[0]?.health();
    const fw = (h?.firmware ?? 'unknown').replace(/[^0-9A-Za-z._+-]/g, '-').slice(0, 32) || 'unknown';
    return {
      model: 'OEPL-AP',
      fw: { ap: fw },
      radio: { profile: 'oepl-2g4', channel: Math.max(0, Math.min(255, h?.channel ?? 0)), kbps: 250 },
      net: { ip: '0.0.0.0', mac: '00:00:00:00:00:00' },
    };
  }

  private heartbeat(): Pick<MessageInput<'heartbeat'>, 'cpu' | 'mem' | 'disk' | 'radio' | 'alarms' | 'ap'> {
    const now = this.link.clock.now();
    const spanS = Math.max(1, (now - this.window.start) / 1000);
    const svcPerS = Math.round((10 * this.window.done) / spanS) / 10;
    const busy = this.aps.reduce((n, ap) => n + (ap.health().inFlight > 0 ? 1 : 0), 0);
    this.window.start = now;
    this.window.done = 0;
    const heap = this.aps[0]?.health().heap ?? 0;
    return {
      cpu: 0,
      mem: heap > 0 ? Math.max(0, Math.min(100, 100 - heap / 3200)) : 0,
      disk: 0,
      radio: {
        busyPct: this.aps.length ? (100 * busy) / this.aps.length : 0,
        svcPerS: Math.min(10_000, svcPerS),
        tx: this.counters.tx,
        rx: this.counters.rx,
        crcErr: 0,
      },
      ...this.apState(),
    };
  }

  /**
   * The heartbeat's alarms and access point (docs/PROTOCOL.md §5.7): the first AP's state,
   * firmware and channel; low-battery, timed-out and tag counts over every AP.
   */
  private apState(): Pick<MessageInput<'heartbeat'>, 'alarms' | 'ap'> {
    const all = this.aps.map((ap) => ap.health());
    const first = all[0];
    if (!first) return {};
    const sum = (f: (h: AdapterHealth) => number) => all.reduce((n, h) => n + Math.max(0, Math.round(f(h))), 0);
    const u32 = (n: number) => Math.min(0xffff_ffff, n);
    const byte = (n: number) => Math.max(0, Math.min(255, Math.round(n)));
    const alarms = [...new Set(all.flatMap((h) => h.alarms))].filter((a) => /^[a-z][A-Za-z0-9]{0,31}$/.test(a));
    return {
      alarms: alarms.slice(0, 16),
      ap: {
        apstate: byte(first.apstate),
        runstate: byte(first.runstate),
        lowBattery: u32(sum((h) => h.lowBattery)),
        timeouts: u32(sum((h) => h.timeouts)),
        ...(first.firmware ? { fw: first.firmware.slice(0, 64) } : {}),
        channel: byte(first.channel),
        tags: u32(sum((h) => h.tags)),
      },
    };
  }

  /** Hands every job that may go now to its AP, most urgent first. */
  work(): void {
    const ready = [...this.link.queue.values()]
      .filter((h) => !h.running && 'tag' in h.job)
      .sort((a, b) => a.job.prio - b.job.prio);
    for (const held of ready) {
      const job = held.job as Extract<Job, { tag: string }>;
      const ap = this.apFor(job.tag);
      if (!ap) continue; // not (yet) seen on any AP: the TTL ends it unknownTag
      if (job.kind === 'image') {
        if (held.bytes === null || this.starting.has(job.tag) || !ap.canDeliver(job.tag)) continue;
        this.run(held, job.tag, () => this.deliver(ap, held, job));
      } else if (job.kind === 'nfc') {
        // The AP's content mode carries both a URL and our pictures: one at a time per tag.
        if (this.starting.has(job.tag) || !ap.canDeliver(job.tag)) continue;
        this.run(held, job.tag, () => ap.nfc(job.tag, job.nfc, job.force === true));
      } else if (job.kind === 'led' || job.kind === 'ping') {
        const led = job.led;
        this.run(held, job.tag, () =>
          led ? ap.led(job.tag, led) : Promise.resolve<TagOutcome>({ code: 'ok', tries: 1, why: 'ping' }),
        );
      }
    }
  }

  private deliver(ap: AccessPointAdapter, held: HeldJob, job: Extract<Job, { kind: 'image' }>): Promise<TagOutcome> {
    const image = decodeTagImage(held.bytes as Uint8Array);
    this.counters.tx++;
    return ap.deliver(job.tag, image, job.image.ver, job.force === true);
  }

  private run(held: HeldJob, tag: string, go: () => Promise<TagOutcome>): void {
    held.running = true;
    held.tries++;
    this.starting.add(tag);
    void go()
      .catch((err: Error): TagOutcome => ({ code: 'nack', tries: 1, why: err.message }))
      .then((out) => {
        this.starting.delete(tag);
        held.running = false;
        const job = held.job;
        const ver = job.kind === 'image' ? job.image.ver : undefined;
        if (out.code === 'ok' || out.code === 'skipped') {
          this.window.done++;
          this.counters.rx++;
          if (ver) this.link.heard.confirm(tag, ver, this.link.serverNow());
        }
        this.link.log(`${job.kind} ${job.id}:${job.rev} → ${tag}: ${out.code} (${out.why})`);
        const okVer = ver && (out.code === 'ok' || out.code === 'skipped') ? { ver } : {};
        this.link.finish(held, out.code, { tries: Math.max(1, out.tries), ...okVer });
        this.changed();
      });
  }

  private scanLines(): string {
    const now = this.link.serverNow();
    const lines = this.aps.flatMap((ap) =>
      ap
        .tagEntries()
        .map((e) => `${e.id} rssi ${e.rssi} lqi ${e.lqi ?? '-'} seen ${Math.round((now - e.seenAt) / 1000)} s ago`),
    );
    return `${lines.join('\n')}\n`;
  }

  private async command(line: string): Promise<CommandOutput> {
    const [cmd, ...args] = line.trim().split(/\s+/);
    const ap = this.aps[0];
    switch (cmd) {
      case 'status':
        return { out: `${JSON.stringify(this.aps.map((a) => a.health()))}\n`, exit: 0 };
      case 'ping':
        return { out: 'pong\n', exit: 0 };
      case 'scan':
        // What the AP hears: each tag's signal and when it last checked in.
        return { out: this.scanLines(), exit: 0 };
      case 'channel':
        return { out: `${ap?.health().channel ?? 0}\n`, exit: 0 };
      case 'log': {
        const n = Number(args[1] ?? args[0] ?? 20);
        return { out: `${this.link.logLines.slice(-(Number.isFinite(n) ? n : 20)).join('\n')}\n`, exit: 0 };
      }
      case 'reboot': {
        if (!(ap instanceof OeplAccessPoint)) return { out: 'no access point\n', exit: 1 };
        const r = await ap.reboot();
        return { out: `access point: ${r.status} ${r.text}\n`, exit: r.status === 200 ? 0 : 1 };
      }
      default:
        return { out: `${cmd}: not offered by an OpenEPaperLink access point\n`, exit: 1 };
    }
  }
}

export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const bridge = new Bridge(options);
  await bridge.start();
  return bridge;
}
