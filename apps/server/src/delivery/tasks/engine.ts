import type { AckMsg, BlobRequestMsg, HeartbeatMsg, HelloMsg, ResultMsg } from '@esl/contract/protocol';
import { onTasksChanged } from '../../outbox/slots/enqueue';
import type { JobConsumer } from '../link/consumers';
import { onHeartbeat, windowOf } from './dispatch';
import { kick } from './pump';
import { onResult } from './results';
import { createState, type EngineCounters, type EngineOptions, type StationRef } from './state';
import { onAck, onBlob, onHello, onTagsReported } from './station-messages';
import { reconcile, tick } from './sweeps';

/*
 * The task engine (DELIVERY.md §5.2–5.4): renders slots waiting in `render`, dispatches queued
 * ones to their station within its in-flight window, and moves them on acks, results, hellos
 * and deadlines — each move one conditional UPDATE, so a late or repeated message changes
 * nothing. The database is the only queue: whatever this process loses in a crash, the
 * reconciler, the deadlines and the stations' hellos bring back.
 *
 * This file wires the stages together (docs/DELIVERY-ENGINE.md, "Where each part lives"):
 * render-stage.ts, dispatch.ts, pump.ts, station-messages.ts, results.ts, sweeps.ts and
 * settle.ts, each handed the one state object of state.ts. It sends through the downlink
 * (`link`, delivery/link) and is the uplink's consumer of kind `task`.
 */

export { renderKey } from './render-stage';
export type { EngineCounters, EngineOptions, RenderBackend, StationRef } from './state';

export interface TaskEngine extends JobConsumer<StationRef> {
  readonly kind: 'task';
  start(): Promise<void>;
  /** Deadlines, the reconciler when due, and a pump. */
  tick(): Promise<void>;
  /** Runs the reconciler now. */
  reconcile(tagIds?: readonly number[]): Promise<number>;
  /** Schedules a pump (render + dispatch). */
  kick(): void;
  /** Resolves when no pump is running or scheduled. */
  idle(): Promise<void>;
  onHello(station: StationRef, m: HelloMsg): Promise<void>;
  onAck(station: StationRef, m: AckMsg): Promise<void>;
  onResult(station: StationRef, m: ResultMsg): Promise<void>;
  /** Serves a blob chunk of one of the station's images: true when it went out (JobConsumer). */
  onBlob(station: StationRef, m: BlobRequestMsg): Promise<boolean>;
  /** Tags reported by a station: heal what they show, dispatch what waited for a route. */
  onTagsReported(tagIds: readonly number[]): Promise<void>;
  /** A station's heartbeat: its measured radio service rate. */
  onHeartbeat(station: StationRef, m: HeartbeatMsg): void;
  /** The service rate (tags/s) and in-flight window a station's dispatch uses now. */
  windowOf(stationId: number): { svcPerS: number; window: number };
  readonly counters: EngineCounters;
  close(): Promise<void>;
}

export function createTaskEngine(o: EngineOptions): TaskEngine {
  const state = createState(o);
  let unsubscribe: (() => void) | null = null;
  const pump = () => kick(state);
  return {
    kind: 'task',
    counters: state.counters,
    kick: pump,
    reconcile: (tagIds) => reconcile(state, tagIds),
    onHello: (station, m) => onHello(state, station, m),
    onAck: (station, m) => onAck(state, station, m),
    onResult: (station, m) => onResult(state, station, m),
    onBlob: (station, m) => onBlob(state, station, m),
    onHeartbeat: (station, m) => onHeartbeat(state, station, m),
    windowOf: (stationId) => windowOf(state, stationId),
    onTagsReported: (tagIds) => onTagsReported(state, tagIds),
    async start() {
      unsubscribe = onTasksChanged(pump);
      state.lastReconcile = o.now();
      await reconcile(state);
      pump();
    },
    tick: () => tick(state),
    async idle() {
      while (state.pumping) await state.pumping;
    },
    async close() {
      state.closed = true;
      unsubscribe?.();
      while (state.pumping) await state.pumping;
      await o.render.close();
    },
  };
}
