import { findTagModel } from '@esl/contract';
import type { RadioProfileName } from '@esl/contract/protocol';
import { VirtualClock } from './clock';
import { channelBound } from './radio/bound';
import { profileByName } from './radio/profiles';
import { Random } from './random';
import { type FlapSpec, SimStation, type StationOptions, type StationSpec, type StationStats } from './station';
import type { FirmwareFaults } from './station/firmware';
import type { SimTag, TagSpec } from './tag';

export interface SimulatorOptions {
  /** Broker URL, e.g. mqtt://127.0.0.1:1884, or mqtts://…:8884 for MQTT over TLS. */
  url: string;
  /** For mqtts://: PEM certificates to trust (a private CA, or the broker's self-signed certificate). */
  ca?: string | Buffer;
  stations: StationSpec[];
  /** Tags to make up for each station that lists none (0 by default). */
  tagsPerStation?: number;
  /** Models of made-up tags with weights, e.g. [['05', 60], ['0A', 30]]. */
  models?: ReadonlyArray<readonly [string, number]>;
  /** Wake interval of made-up tags, s (40). */
  wakeS?: number;
  profile?: RadioProfileName;
  /** Virtual ms per real ms; 0: a manual clock that only `clock.advance()` moves. Default 1. */
  speed?: number;
  seed?: string | number;
  /** Extra frame loss (0–1). */
  loss?: number;
  flap?: FlapSpec | null;
  /**
   * Firmware jobs for every station that does not say (`StationSpec.firmware`): taken, with these
   * faults (each station has them once); absent or false: refused as unsupported.
   */
  firmware?: FirmwareFaults | boolean;
  /** Virtual start time (Unix ms); now by default. */
  start?: number;
  /** Jobs a station holds at most. */
  queueSize?: number;
  /** Heartbeat and tag-report intervals the stations start with, s (60, 30). */
  heartbeatS?: number;
  reportS?: number;
  log?: (line: string) => void;
  /** Called with every jobs message a station receives. */
  onJobs?: StationOptions['onJobs'];
}

export interface StationReport {
  sn: string;
  tenantId: number;
  channel: number;
  connected: boolean;
  tags: number;
  queue: number;
  outbox: number;
  stats: StationStats;
  /** Share of the run its radio was busy, %. */
  busyPct: number;
  /** Lower bound for the transfers it made (DELIVERY.md §7), s, and the virtual time they took. */
  boundS: number;
}

export interface SimReport {
  profile: RadioProfileName;
  seed: string | number;
  virtualMs: number;
  stations: StationReport[];
}

export interface Simulator {
  readonly clock: VirtualClock;
  readonly stations: readonly SimStation[];
  /** A station by serial (and tenant, when serials repeat across tenants). */
  station(sn: string, tenantId?: number): SimStation;
  tag(id: string): SimTag;
  /** Presses a tag's button (docs/PAGES.md): its next page; false when it holds one page. */
  pressButton(id: string): boolean;
  /** Resolves when `pred` holds, checked after every change; rejects after `timeoutMs` of real time. */
  waitFor(pred: () => boolean, options?: { timeoutMs?: number; what?: string }): Promise<void>;
  report(): SimReport;
  /** Every station publishes its offline status and disconnects cleanly; timers stop. */
  stop(): Promise<void>;
}

/** Tag ids made up for a station: stable for a seed, tenant and serial. */
export function madeUpTags(
  rng: Random,
  n: number,
  models: ReadonlyArray<readonly [string, number]>,
  wakeS: number,
): TagSpec[] {
  const specs: TagSpec[] = [];
  const seen = new Set<string>();
  while (specs.length < n) {
    const id = rng.hex(12);
    if (seen.has(id)) continue;
    seen.add(id);
    specs.push({ id, hw: rng.weighted(models), wakeS });
  }
  return specs;
}

/**
 * Starts simulated stations (and their tags) against a broker; resolves once every station has
 * had its first connection attempt (check `station.isConnected` / `lastError` for refusals).
 */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const seed = options.seed ?? 1;
  const root = new Random(seed);
  const profile = profileByName(options.profile ?? 'oepl-2g4');
  const clock = new VirtualClock({ start: options.start, speed: options.speed ?? 1 });
  const models = options.models ?? [['05', 1]];
  for (const [code] of models) if (!findTagModel(code)) throw new RangeError(`unknown tag model ${code}`);
  const started = clock.now();

  const listeners = new Set<() => void>();
  let notifyQueued = false;
  const onChange = () => {
    if (notifyQueued) return;
    notifyQueued = true;
    setImmediate(() => {
      notifyQueued = false;
      for (const l of [...listeners]) l();
    });
  };

  const stations = options.stations.map((spec, i) => {
    const rng = root.fork(`station ${spec.tenantId}.${spec.sn}`);
    const tags = spec.tags ?? madeUpTags(rng.fork('tags'), options.tagsPerStation ?? 0, models, options.wakeS ?? 40);
    return new SimStation(
      {
        ...spec,
        tags,
        channel: spec.channel ?? profile.channels[i % profile.channels.length],
        firmware: spec.firmware ?? options.firmware,
      },
      {
        url: options.url,
        ca: options.ca,
        clock,
        rng,
        profile,
        loss: options.loss,
        flap: options.flap,
        queueSize: options.queueSize,
        heartbeatS: options.heartbeatS,
        reportS: options.reportS,
        onChange,
        onJobs: options.onJobs,
        log: options.log,
      },
    );
  });
  const tagIndex = new Map<string, SimTag>();
  for (const s of stations) for (const t of s.tags.values()) tagIndex.set(t.id, t);

  await Promise.all(stations.map((s) => s.start()));

  return {
    clock,
    stations,
    station(sn, tenantId) {
      const s = stations.find((x) => x.key.sn === sn && (tenantId === undefined || x.key.tenantId === tenantId));
      if (!s) throw new RangeError(`no simulated station ${sn}`);
      return s;
    },
    tag(id) {
      const t = tagIndex.get(id);
      if (!t) throw new RangeError(`no simulated tag ${id}`);
      return t;
    },
    pressButton(id) {
      const s = stations.find((x) => x.tags.has(id));
      if (!s) throw new RangeError(`no simulated tag ${id}`);
      return s.pressButton(id);
    },
    waitFor(pred, { timeoutMs = 10_000, what = 'condition' } = {}) {
      if (pred()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!pred()) return;
          cleanup();
          resolve();
        };
        const poll = setInterval(check, 20);
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`simulator: timed out waiting for ${what}`));
        }, timeoutMs);
        const cleanup = () => {
          listeners.delete(check);
          clearInterval(poll);
          clearTimeout(timer);
        };
        listeners.add(check);
      });
    },
    report() {
      const virtualMs = clock.now() - started;
      return {
        profile: profile.name,
        seed,
        virtualMs,
        stations: stations.map((s) => {
          const sizes = [...s.tags.values()].filter((t) => t.transfers > 0).map((t) => t.screen()?.bytes.length ?? 0);
          const wakeS = [...s.tags.values()].map((t) => t.wakeS);
          return {
            sn: s.key.sn,
            tenantId: s.key.tenantId,
            channel: s.channel,
            connected: s.isConnected,
            tags: s.tags.size,
            queue: s.queue.size,
            outbox: s.outbox.size,
            stats: structuredClone(s.stats),
            busyPct: virtualMs > 0 ? Math.round((1000 * s.stats.airMs) / virtualMs) / 10 : 0,
            boundS: Math.round(channelBound(profile, { sizes, wakeS }).boundS * 10) / 10,
          };
        }),
      };
    },
    async stop() {
      await Promise.all(stations.map((s) => s.stop()));
      clock.stop();
    },
  };
}
