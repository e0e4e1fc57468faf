import type { Readable } from 'node:stream';
import type { CallName, DataOf, FileCallName, ListCallName, ParsedBodyOf } from '@esl/contract';
import type { CallContext } from './context';

/** A page of rows and the number of rows before paging. */
export interface ListResult<T> {
  rows: T[];
  count: number;
}

/** What the handler of a file call answers: the bytes (or a stream of them) and, if not the call's, the file name. */
export interface FileReply {
  body: Readable | Buffer;
  filename?: string;
}

export type Answer<N extends CallName> = N extends FileCallName
  ? FileReply
  : N extends ListCallName
    ? ListResult<DataOf<N>>
    : DataOf<N>;

/** A handler gets a validated body and an authorised caller; it answers the call's data. */
export type Handler<N extends CallName> = (ctx: CallContext, body: ParsedBodyOf<N>) => Promise<Answer<N>>;

export type HandlerMap = { [N in CallName]?: Handler<N> };

/** Typed identity so each module's map is checked against the contract. */
export function defineHandlers<M extends HandlerMap>(map: M): M {
  return map;
}
