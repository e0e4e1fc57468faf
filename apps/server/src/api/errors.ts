import {
  ErrorCode,
  fieldLabel,
  formatMessage,
  type Language,
  NOT_FOUND_DETAILS,
  VALIDATION_DETAILS,
} from '@esl/contract';

export type DetailKey = keyof typeof VALIDATION_DETAILS;

/** `value` goes with a NOT_FOUND_DETAILS kind: the barcode or ID that was not found. */
export type ErrorVars = { field?: string; detail?: string; value?: string };

/**
 * A refusal with a stable code. `detail` is a key of VALIDATION_DETAILS (translated when the
 * message is built) or a literal such as a username or a number of seconds.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly vars: ErrorVars = {},
    /** What the envelope's `data` carries with the refusal (e.g. the bad rows of an import); null when none. */
    readonly data: unknown = null,
    /**
     * Seconds to wait before trying again: the answer is then HTTP 429 with `Retry-After` beside
     * the envelope's code, so a client's own retry logic works (issue 26 item 4).
     */
    readonly retryAfter?: number,
  ) {
    super(`code ${code}`);
    this.name = 'AppError';
  }
}

/**
 * The envelope's message in `lang`. A refused field is named in the reader's words (fields.ts);
 * `keys` keeps the request's own dotted path instead, for the integration API, whose reader is a
 * program's author matching it against their request.
 */
export function messageOf(code: ErrorCode, lang: Language, vars: ErrorVars = {}, keys = false): string {
  if (code === ErrorCode.NOT_FOUND && vars.detail && NOT_FOUND_DETAILS[vars.detail]) {
    return formatMessage(code, lang, { detail: vars.detail, value: vars.value ?? '' });
  }
  const detail = vars.detail === undefined ? '' : (VALIDATION_DETAILS[vars.detail]?.[lang] ?? vars.detail);
  const field = vars.field === undefined ? '' : keys ? vars.field : fieldLabel(vars.field, lang);
  return formatMessage(code, lang, { field, detail });
}

export const sessionExpired = () => new AppError(ErrorCode.SESSION_EXPIRED);
export const invalidField = (field: string, detail: DetailKey) => new AppError(ErrorCode.VALIDATION, { field, detail });
export const notFound = (what?: { kind: keyof typeof NOT_FOUND_DETAILS; value: string }) =>
  new AppError(ErrorCode.NOT_FOUND, what ? { detail: what.kind, value: what.value } : {});
export const forbidden = () => new AppError(ErrorCode.FORBIDDEN);
export const conflict = (detail: string) => new AppError(ErrorCode.CONFLICT, { detail });
export const rateLimited = (seconds: number) =>
  new AppError(ErrorCode.RATE_LIMITED, { detail: String(seconds) }, null, seconds);
export const loginFailed = () => new AppError(ErrorCode.LOGIN_FAILED);
export const notAvailable = () => new AppError(ErrorCode.NOT_AVAILABLE);
export const storeNotSet = () => new AppError(ErrorCode.STORE_NOT_SET);
export const badFile = (detail: DetailKey) => new AppError(ErrorCode.BAD_FILE, { detail });
export const tooManyRequests = () => new AppError(ErrorCode.TOO_MANY_REQUESTS);
