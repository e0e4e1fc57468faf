import {
  type BodyOf,
  type CallName,
  type DataOf,
  ErrorCode,
  MESSAGE_DURATION_MS,
  REQUEST_TIMEOUT_MS,
} from '@esl/contract';
import axios, { type AxiosResponse } from 'axios';
import { API_BASE, CALL_PATHS } from '../api/callPaths';
import { getToken, removeToken } from '../utils/auth';
import { dispositionFilename } from '../utils/download';
import { sentenceCase } from '../utils/format';
import { feedback } from './feedback';
import { i18n } from './i18n';

/** A call that answered with a code other than 0, or did not answer at all (code -1). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** The refusal's `data`, when it carries details (e.g. the bad rows of an import). */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  /** Do not show the error message or the expiry box: the caller reports the failure itself. */
  quiet?: boolean;
}

/** Options of file transfers, which may take longer than a call (a large import or export). */
export interface TransferOptions extends RequestOptions {
  /** Milliseconds; default the client's REQUEST_TIMEOUT_MS. */
  timeout?: number;
  /** Called with the share sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
  /** Text fields sent before the file (upload only). */
  fields?: Record<string, string>;
}

interface Answer {
  code: number;
  msg?: string;
  data?: unknown;
  count?: number;
}

const MESSAGE_SECONDS = MESSAGE_DURATION_MS / 1000;

export const http = axios.create({ baseURL: API_BASE, timeout: REQUEST_TIMEOUT_MS });

http.interceptors.request.use((config) => {
  const token = getToken();
  if (token) {
    config.headers.set('token', token);
    config.headers.set('Authorization', `Bearer ${token}`);
  }
  config.headers.set('Accept-Language', i18n.language);
  return config;
});

let expiryBoxOpen = false;

/**
 * Code 800 (SPEC.md §8): the session is gone. One box at a time, its text in Chinese as the
 * spec shows it (with the English line added when the console is in English).
 */
function showExpiryBox(): void {
  if (expiryBoxOpen) return;
  expiryBoxOpen = true;
  const t = i18n.getFixedT(null, 'errors');
  const zh = i18n.getFixedT('zh-CN', 'errors');
  const english = i18n.language === 'en';
  feedback().confirm({
    title: t('expiredTitle'),
    content: english ? `${zh('expired')} (${t('expired')})` : zh('expired'),
    okText: t('relogin'),
    cancelText: t('cancel'),
    onOk: () => {
      removeToken();
      window.location.reload();
    },
    afterClose: () => {
      expiryBoxOpen = false;
    },
  });
}

function failHttp(error: unknown, quiet: boolean): never {
  const t = i18n.getFixedT(null, 'errors');
  let text = t('network');
  if (axios.isAxiosError(error)) {
    if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT') text = t('timeout');
    else if (error.response) text = t('http', { status: error.response.status });
  }
  if (!quiet) feedback().message.error({ content: text, duration: MESSAGE_SECONDS });
  throw new ApiError(-1, text);
}

/**
 * A refusal the server sent with an HTTP error status — 429 with Retry-After for a throttled login
 * or too many requests — still carries the envelope: read it like any other answer, so the user
 * sees the server's message (with its wait), not "HTTP 429".
 */
function refusalOf(error: unknown): AxiosResponse<Answer> | null {
  if (!axios.isAxiosError(error) || !error.response) return null;
  const data: unknown = error.response.data;
  const isEnvelope = typeof data === 'object' && data !== null && typeof (data as Answer).code === 'number';
  return isEnvelope ? (error.response as AxiosResponse<Answer>) : null;
}

function check(res: AxiosResponse<Answer>, quiet: boolean): Answer {
  const answer = res.data;
  if (answer && typeof answer === 'object' && answer.code === ErrorCode.OK) return answer;
  const code = typeof answer?.code === 'number' ? answer.code : -1;
  // The server's English messages are sentence fragments ('missing column: name'); alone in a
  // message they read in sentence case, like the console's own.
  const text = sentenceCase(answer?.msg || 'Error');
  if (!quiet) {
    if (code === ErrorCode.SESSION_EXPIRED) showExpiryBox();
    else feedback().message.error({ content: text, duration: MESSAGE_SECONDS });
  }
  throw new ApiError(code, text, answer?.data);
}

async function send(path: string, body: unknown, quiet: boolean): Promise<Answer> {
  let res: AxiosResponse<Answer>;
  try {
    res = await http.post<Answer>(path, body ?? {});
  } catch (error) {
    const refused = refusalOf(error);
    if (refused) return check(refused, quiet);
    failHttp(error, quiet);
  }
  return check(res, quiet);
}

/** Makes one call of the contract; resolves with its `data`, rejects with an ApiError. */
export async function request<N extends CallName>(
  name: N,
  body?: BodyOf<N>,
  options: RequestOptions = {},
): Promise<DataOf<N>> {
  const answer = await send(CALL_PATHS[name], body, options.quiet ?? false);
  return answer.data as DataOf<N>;
}

/** A list call: its rows and the total count before paging. */
export async function requestList<N extends CallName>(
  name: N,
  body?: BodyOf<N>,
  options: RequestOptions = {},
): Promise<{ rows: DataOf<N>[]; count: number }> {
  const answer = await send(CALL_PATHS[name], body, options.quiet ?? false);
  const rows = Array.isArray(answer.data) ? (answer.data as DataOf<N>[]) : [];
  return { rows, count: answer.count ?? rows.length };
}

/** Multipart upload of one file in field `file`, e.g. upload('/user/avatar', file). */
export async function upload(path: string, file: File, options: TransferOptions = {}): Promise<unknown> {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  form.append('file', file);
  const quiet = options.quiet ?? false;
  const { onProgress } = options;
  let res: AxiosResponse<Answer>;
  try {
    res = await http.post<Answer>(path, form, {
      timeout: options.timeout ?? REQUEST_TIMEOUT_MS,
      onUploadProgress: onProgress ? (e) => onProgress(e.total ? e.loaded / e.total : 0) : undefined,
    });
  } catch (error) {
    const refused = refusalOf(error);
    if (refused) return check(refused, quiet).data;
    failHttp(error, quiet);
  }
  return check(res, quiet).data;
}

/** A file the server answered, with the name it suggested (Content-Disposition), if any. */
export interface Download {
  blob: Blob;
  filename: string | undefined;
}

/**
 * POSTs a JSON body to a path that answers a file (an export). A refusal comes back as the usual
 * JSON envelope and is reported like any call's.
 */
export async function download(path: string, body: unknown, options: TransferOptions = {}): Promise<Download> {
  const quiet = options.quiet ?? false;
  let res: AxiosResponse<Blob>;
  try {
    res = await http.post<Blob>(path, body ?? {}, {
      responseType: 'blob',
      timeout: options.timeout ?? REQUEST_TIMEOUT_MS,
    });
  } catch (error) {
    failHttp(error, quiet);
  }
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('application/json')) {
    let answer: Answer;
    try {
      answer = JSON.parse(await res.data.text()) as Answer;
    } catch {
      answer = { code: -1 };
    }
    check({ ...res, data: answer }, quiet);
  }
  return { blob: res.data, filename: dispositionFilename(res.headers['content-disposition'] as string | undefined) };
}
