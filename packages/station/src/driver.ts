import type { JobKind, LearnedModel, Message, MessageInput } from '@esl/contract/protocol';
import type { ChunkRequest } from './blobs';
import type { HeldJob } from './jobs';

/** What a station's downward half answers and hears; every hook but the first four is optional. */
export interface StationDriver {
  /** Job kinds it takes (`caps.kinds`); others are refused `unsupported`. */
  kinds(): readonly JobKind[];
  /** The hello's hardware part: model, firmware, radio, network. */
  hello(): Pick<MessageInput<'hello'>, 'model' | 'fw' | 'radio' | 'net'>;
  /** The heartbeat's load and radio figures (a bridge adds its alarms and its access point). */
  heartbeat(): Pick<MessageInput<'heartbeat'>, 'cpu' | 'mem' | 'disk' | 'radio' | 'alarms' | 'ap'>;
  /** A command-window line; the output goes back to the console. */
  command(line: string): CommandOutput | Promise<CommandOutput>;
  /** A job was queued (acked ok). */
  queued?(held: HeldJob): void;
  /** Work may be ready: a job arrived, or an image's bytes did. */
  work?(): void;
  /** The server answered hello. */
  welcomed?(): void;
  /** A configuration arrived (before the link applies its intervals). */
  configured?(m: Message<'config'>): void;
  /**
   * Every tag model it learned from its vendor's hardware (`up/models`, docs/PROTOCOL.md §5.13):
   * sent after each welcome, and when the driver calls `StationLink.sendModels()`.
   */
  models?(): LearnedModel[];
  /** The tags a roll call asks about. */
  rollCallTags?(): string[];
  /** A blob chunk as received; may return other bytes (fault injection). */
  chunk?(offset: number, bytes: Uint8Array): Uint8Array;
  /** A blob chunk was taken (`blob`: the whole blob, once complete); true: nothing more to do. */
  blob?(hash: string, blob: Uint8Array | null): boolean;
  /**
   * `down/cancel` named a job the station no longer queues: a timed image already handed to its
   * tag (docs/PROTOCOL.md §5.14). True: the driver takes it back from the tag before its time and
   * reports `cancelled` for it; false or absent: the cancel is ignored.
   */
  withdraw?(id: string, rev: number): boolean;
  /** A chunk request goes out on the connection number `connect`. */
  chunkRequested?(r: ChunkRequest, connect: number): void;
}

export interface CommandOutput {
  out: string;
  exit: number;
}

export type CmdSessions = Map<string, { expiresAt: number; seq: number }>;

/** What the command window needs of the station. */
export interface CmdHost {
  now: number;
  sessions: CmdSessions;
  send(body: MessageInput<'cmdOutput'>): void;
  log(line: string): void;
  driver: StationDriver | null;
}

/** The command window (docs/PROTOCOL.md 5.11): sessions opened with a TTL, lines run by the driver. */
export function onCmd(host: CmdHost, m: Message<'cmd'>): void {
  const { now, sessions } = host;
  if (m.open) sessions.set(m.session, { expiresAt: now + m.open.ttlS * 1000, seq: 0 });
  const session = sessions.get(m.session);
  if (session && session.expiresAt < now) sessions.delete(m.session);
  const out = (text: string, exit?: number) => {
    const s = sessions.get(m.session) ?? { expiresAt: now, seq: 0 };
    host.send({ v: 1, session: m.session, seq: s.seq++, out: text, exit });
  };
  if (m.line !== undefined) {
    if (!sessions.has(m.session)) {
      out('no open session\n', 1);
    } else if (host.driver) {
      host.log(`cmd: ${m.line}`);
      const r = host.driver.command(m.line);
      if (r instanceof Promise) {
        void r.then((o) => out(o.out, o.exit)).catch((err: Error) => out(`${err.message}\n`, 1));
      } else {
        out(r.out, r.exit);
      }
    }
  }
  if (m.close) sessions.delete(m.session);
}
