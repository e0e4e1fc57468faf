import type { Kysely } from 'kysely';
import type { StationAccounts } from '../../api/station-accounts';
import type { StationBridges } from '../../api/station-bridges';
import type { BridgeConfig } from '../../infra/config';
import type { Database } from '../../infra/db/schema';
import { type BridgedStation, bridgedStations, issueBridgeSecret } from '../../modules/stations/service';

/*
 * The bridges this server runs in its own process, one per OpenEPaperLink station (kind `oepl`
 * with an AP address), so a shop with one AP needs nothing but the server (docs/OEPL.md). Each
 * bridge is one of our stations upward exactly as `npm run bridge` is: it logs in to the broker
 * over MQTT with the station's name and a secret. That secret is issued here at each start of the
 * bridge (only its hash is stored, as for any station), handed to the bridge in memory and never
 * written, answered or logged; the previous one stops working. So nothing secret is kept at rest
 * and a restart of the server is a restart of its bridges with new secrets.
 *
 * The manager looks at the database at start, when the stations module says an OEPL station was
 * added, changed or deleted, and every `reconcileMs`: a bridge starts for a new station, restarts
 * when its address changed, stops when the station is gone, and all stop at shutdown. With several
 * server processes a bridge runs only where its lease (`bridge:{id}`) is held.
 */

/** What the manager needs of a running bridge. */
export interface RunningBridge {
  stop(): Promise<void>;
}

export type BridgeStart = Parameters<NonNullable<BridgeConfig['start']>>[0];

export interface BridgeManagerOptions {
  db: Kysely<Database>;
  /** Where the bridges connect (the embedded broker's listener, or MQTT_URL). */
  url: string;
  accounts: StationAccounts;
  now: () => number;
  /** Starts one bridge; by default `@esl/bridge`'s, loaded on first use (tests pass their clock). */
  start?: (o: BridgeStart) => Promise<RunningBridge>;
  /** With several processes: take or renew the bridge's lease; absent: this process runs them all. */
  claim?: (stationId: number) => Promise<boolean>;
  release?: (stationId: number) => Promise<void>;
  /** Periodic look, ms (5000); 0: only at start and when told. */
  reconcileMs?: number;
  log: (line: string) => void;
  onError: (err: unknown) => void;
}

export interface BridgeManager extends StationBridges {
  /** Brings the running bridges in line with the database (serialised; resolves when done). */
  reconcile(): Promise<void>;
  /** Station id → AP address of every bridge running here. */
  running(): Map<number, string>;
  close(): Promise<void>;
}

const STOP_MS = 3000;

interface Entry {
  apUrl: string;
  bridge: RunningBridge;
}

async function defaultStart(o: BridgeStart): Promise<RunningBridge> {
  // Loaded only when a station of this kind exists (jpeg-js, ws): a server without one never loads it.
  const { startBridge } = await import('@esl/bridge');
  return startBridge({ url: o.url, station: o.station, aps: o.aps, log: o.log });
}

export function createBridgeManager(o: BridgeManagerOptions): BridgeManager {
  const entries = new Map<number, Entry>();
  const start = o.start ?? defaultStart;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;

  async function stopOne(id: number, why: string): Promise<void> {
    const entry = entries.get(id);
    if (!entry) return;
    entries.delete(id);
    // A bridge stops within STOP_MS (it says goodbye to the broker, closes the AP's WebSocket).
    await Promise.race([entry.bridge.stop(), new Promise((r) => setTimeout(r, STOP_MS).unref())]).catch(o.onError);
    await o.release?.(id).catch(o.onError);
    o.log(`OEPL bridge of station #${id} stopped (${why})`);
  }

  async function startOne(s: BridgedStation): Promise<void> {
    const secret = await issueBridgeSecret(o.db, s.id, o.now());
    await o.accounts.secretIssued({ tenantId: s.tenantId, sn: s.sn }, secret);
    const name = `${s.tenantId}.${s.sn}`;
    const bridge = await start({
      url: o.url,
      station: { tenantId: s.tenantId, sn: s.sn, secret },
      aps: [s.apUrl],
      log: (line) => o.log(`OEPL bridge ${name}: ${line}`),
    });
    if (closed) {
      await bridge.stop();
      return;
    }
    entries.set(s.id, { apUrl: s.apUrl, bridge });
    o.log(`OEPL bridge ${name} started for ${s.apUrl}`);
  }

  async function pass(): Promise<void> {
    if (closed) return;
    const wanted = new Map((await bridgedStations(o.db)).map((s) => [s.id, s]));
    for (const [id, entry] of [...entries]) {
      const s = wanted.get(id);
      if (!s) await stopOne(id, 'station deleted');
      else if (s.apUrl !== entry.apUrl) await stopOne(id, `address changed to ${s.apUrl}`);
    }
    for (const s of wanted.values()) {
      if (closed) return;
      const mine = o.claim ? await o.claim(s.id) : true;
      if (!mine) {
        await stopOne(s.id, 'another server process holds it');
        continue;
      }
      if (!entries.has(s.id)) {
        try {
          await startOne(s);
        } catch (err) {
          o.onError(err);
        }
      }
    }
  }

  function reconcile(): Promise<void> {
    chain = chain.then(pass).catch(o.onError);
    return chain;
  }

  const timer = (o.reconcileMs ?? 5000) > 0 ? setInterval(() => void reconcile(), o.reconcileMs ?? 5000) : null;
  timer?.unref();

  return {
    reconcile,
    changed: () => void reconcile(),
    running: () => new Map([...entries].map(([id, e]) => [id, e.apUrl])),
    async close() {
      if (timer) clearInterval(timer);
      closed = true;
      await chain;
      await Promise.all([...entries.keys()].map((id) => stopOne(id, 'server stopping')));
    },
  };
}
