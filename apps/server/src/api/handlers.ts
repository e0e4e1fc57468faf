import type { CallName, DataOf, ListCallName, ParsedBodyOf } from '@esl/contract';
import type { CallContext } from './context';

/** A page of rows and the number of rows before paging. */
export interface ListResult<T> {
  rows: T[];
  count: number;
}

export type Answer<N extends CallName> = N extends ListCallName ? ListResult<DataOf<N>> : DataOf<N>;

/** A handler gets a validated body and an authorised caller; it answers the call's data. */
export type Handler<N extends CallName> = (ctx: CallContext, body: ParsedBodyOf<N>) => Promise<Answer<N>>;

export type HandlerMap = { [N in CallName]?: Handler<N> };

/** Typed identity so each module's map is checked against the contract. */
export function defineHandlers<M extends HandlerMap>(map: M): M {
  return map;
}
