import { z } from 'zod';
import type { Permission } from '../roles';

/**
 * Who may make a call: anyone, any signed-in user, or a user whose roles grant the permission.
 * `self` calls act on the caller's own account and are open to every signed-in user.
 */
export type Access = 'public' | 'session' | Permission;

/**
 * A call that answers a file when it succeeds (a refusal still answers the envelope, as JSON).
 * The server's one request pipeline streams it; OpenAPI shows the file's media type.
 */
export interface FileAnswer {
  /** Media type of the file. */
  type: string;
  /** Download name, unless the handler names the file itself (e.g. with the store and the date). */
  filename: string;
}

export interface CallDef<B extends z.ZodType = z.ZodType, D extends z.ZodType = z.ZodType> {
  path: string;
  access: Access;
  body: B;
  /** What `data` holds in a successful envelope (`null` for a call answering a file). */
  data: D;
  /** List calls answer `data` as an array of rows plus `count`. */
  list: boolean;
  /** False until the issue that builds it lands: the server answers NOT_AVAILABLE. */
  ready: boolean;
  summary: string;
  /** The call changes data, so it writes an operation-log row. */
  changes: boolean;
  /** For a changing call that some bodies only read: true when this body reads, and so is not logged. */
  readsOnly?: (body: Record<string, unknown>) => boolean;
  /** Set when a success answers a file instead of the envelope. */
  file?: FileAnswer;
  /** A refusal that answers `data` beside its code; every other refusal answers `data: null`. */
  refusal?: RefusalWithData;
  /**
   * A multipart upload: the most bytes its files may hold together. A body announced larger
   * (Content-Length) is refused before any of it is read.
   */
  upload?: number;
}

/**
 * A refusal whose envelope carries data (the bad rows of an import): the OpenAPI document names
 * its schema in components.schemas, beside the shared Refusal.
 */
export interface RefusalWithData {
  /** The schema's name in the document's components. */
  name: string;
  code: number;
  data: z.ZodType;
  description: string;
}

export interface CallOptions {
  list?: boolean;
  ready?: boolean;
  changes?: boolean;
  readsOnly?: (body: Record<string, unknown>) => boolean;
  file?: FileAnswer;
  refusal?: RefusalWithData;
  upload?: number;
}

/**
 * A call whose `list` and `file` flags are known to the type system, so handlers of list calls
 * must answer rows and handlers of file calls a file.
 */
export type TypedCallDef<
  B extends z.ZodType,
  D extends z.ZodType,
  L extends boolean,
  F extends boolean = false,
> = CallDef<B, D> & { list: L; file: F extends true ? FileAnswer : undefined };

type ListFlag<O extends CallOptions> = O['list'] extends true ? true : false;
type FileFlag<O extends CallOptions> = O['file'] extends FileAnswer ? true : false;

/** The one way to declare a call; each file of this folder declares the calls of one area with it. */
export function call<B extends z.ZodType, D extends z.ZodType, O extends CallOptions = Record<never, never>>(
  path: string,
  access: Access,
  body: B,
  data: D,
  summary: string,
  opts?: O,
): TypedCallDef<B, D, ListFlag<O>, FileFlag<O>> {
  const def: CallDef<B, D> = {
    path,
    access,
    body,
    data,
    summary,
    list: opts?.list ?? false,
    ready: opts?.ready ?? true,
    changes: opts?.changes ?? false,
  };
  if (opts?.readsOnly) def.readsOnly = opts.readsOnly;
  if (opts?.file) def.file = opts.file;
  if (opts?.refusal) def.refusal = opts.refusal;
  if (opts?.upload) def.upload = opts.upload;
  return def as TypedCallDef<B, D, ListFlag<O>, FileFlag<O>>;
}

/** A call of SPEC.md §7 whose issue has not landed: any body, answers NOT_AVAILABLE (1007). */
export const pending = (path: string, access: Access, summary: string, changes = false) =>
  call(path, access, z.object({}).loose(), z.unknown(), summary, { ready: false, changes });

export const list = { list: true } as const;
export const change = { changes: true } as const;
