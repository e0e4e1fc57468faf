import type { z } from 'zod';
import {
  AckMsg,
  BlobRequestMsg,
  CancelMsg,
  CmdMsg,
  CmdOutputMsg,
  HeartbeatMsg,
  HelloMsg,
  JobsMsg,
  ModelsMsg,
  ProgressMsg,
  ResackMsg,
  ResultMsg,
  StationConfigMsg,
  StatusMsg,
  TagsMsg,
  TimeMsg,
  WelcomeMsg,
} from './messages';

/** Where a message travels, with which MQTT flags, and its schema. */
export interface MessageSpec<S extends z.ZodType = z.ZodType> {
  /** Topic after `esl/v1/{tid}/{sn}/`. */
  readonly path: string;
  /** `up`: station → server; `down`: server → station. */
  readonly dir: 'up' | 'down';
  readonly qos: 0 | 1;
  readonly retain: boolean;
  readonly schema: S;
  readonly summary: string;
}

const spec = <S extends z.ZodType>(s: MessageSpec<S>) => s;

/**
 * Every JSON message of the protocol, by name. `down/blob/{hash}/{offset}` (raw bytes, no JSON)
 * is the only payload not listed: see BLOB_CHUNK.
 */
export const MESSAGES = {
  status: spec({
    path: 'status',
    dir: 'up',
    qos: 1,
    retain: true,
    schema: StatusMsg,
    summary: 'online/offline; also the Last Will',
  }),
  hello: spec({
    path: 'up/hello',
    dir: 'up',
    qos: 1,
    retain: false,
    schema: HelloMsg,
    summary: 'who the station is, what it holds',
  }),
  heartbeat: spec({
    path: 'up/heartbeat',
    dir: 'up',
    qos: 0,
    retain: false,
    schema: HeartbeatMsg,
    summary: 'runtime figures',
  }),
  models: spec({
    path: 'up/models',
    dir: 'up',
    qos: 1,
    retain: false,
    schema: ModelsMsg,
    summary: 'tag models learned',
  }),
  tags: spec({ path: 'up/tags', dir: 'up', qos: 1, retain: false, schema: TagsMsg, summary: 'tags heard' }),
  ack: spec({ path: 'up/ack', dir: 'up', qos: 1, retain: false, schema: AckMsg, summary: 'jobs received' }),
  result: spec({ path: 'up/result', dir: 'up', qos: 1, retain: false, schema: ResultMsg, summary: 'jobs finished' }),
  progress: spec({
    path: 'up/progress',
    dir: 'up',
    qos: 0,
    retain: false,
    schema: ProgressMsg,
    summary: 'long job progress',
  }),
  blobRequest: spec({
    path: 'up/blob',
    dir: 'up',
    qos: 1,
    retain: false,
    schema: BlobRequestMsg,
    summary: 'chunk request',
  }),
  cmdOutput: spec({
    path: 'up/cmd',
    dir: 'up',
    qos: 1,
    retain: false,
    schema: CmdOutputMsg,
    summary: 'command-window output',
  }),
  welcome: spec({
    path: 'down/welcome',
    dir: 'down',
    qos: 1,
    retain: false,
    schema: WelcomeMsg,
    summary: 'answer to hello',
  }),
  jobs: spec({ path: 'down/jobs', dir: 'down', qos: 1, retain: false, schema: JobsMsg, summary: 'work to do' }),
  cancel: spec({
    path: 'down/cancel',
    dir: 'down',
    qos: 1,
    retain: false,
    schema: CancelMsg,
    summary: 'work withdrawn',
  }),
  resack: spec({
    path: 'down/resack',
    dir: 'down',
    qos: 1,
    retain: false,
    schema: ResackMsg,
    summary: 'results stored',
  }),
  config: spec({
    path: 'down/config',
    dir: 'down',
    qos: 1,
    retain: false,
    schema: StationConfigMsg,
    summary: 'desired configuration',
  }),
  cmd: spec({ path: 'down/cmd', dir: 'down', qos: 1, retain: false, schema: CmdMsg, summary: 'command window' }),
  time: spec({ path: 'down/time', dir: 'down', qos: 0, retain: false, schema: TimeMsg, summary: 'server clock' }),
} as const;

export type MessageName = keyof typeof MESSAGES;
export type Message<K extends MessageName> = z.infer<(typeof MESSAGES)[K]['schema']>;
/** What a sender may pass (the same shape; optional fields may be left out). */
export type MessageInput<K extends MessageName> = z.input<(typeof MESSAGES)[K]['schema']>;

export const MESSAGE_NAMES = Object.keys(MESSAGES) as MessageName[];

/** The one binary payload: a blob chunk, raw bytes, at most the requested length. */
export const BLOB_CHUNK = {
  path: 'down/blob/{hash}/{offset}',
  dir: 'down',
  qos: 1,
  retain: false,
  summary: 'raw bytes of one chunk',
} as const;

/** The message name for a topic path after the station root, e.g. `up/blob` → `blobRequest`. */
export function messageForPath(path: string): MessageName | undefined {
  return MESSAGE_NAMES.find((name) => MESSAGES[name].path === path);
}
