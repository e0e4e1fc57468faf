import type { CallName, InfoData, RequestProgress, Tag, TagDelivery } from '@esl/contract';
import Cookies from 'js-cookie';
import { sha256 } from 'js-sha256';
import { API_BASE, CALL_PATHS } from '../api/callPaths';

// The handheld calls the console's own API (/api/...) with the console's session cookie; only
// types come from the contract, and the paths from the generated `api/callPaths.ts`, so the
// page's JavaScript carries no zod (docs/PDA.md).
const TOKEN_COOKIE = 'ESL-Token';
/** The API's "session expired" and "not allowed" codes. */
export const SESSION_EXPIRED = 800;
export const FORBIDDEN = 1003;

export type { InfoData, RequestProgress, Tag, TagDelivery };

/** A call answered with another code than 0 (message in the page's language), or -1: no answer. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The console's session cookie: signing in on either page signs in both. */
export function getToken(): string {
  return Cookies.get(TOKEN_COOKIE) ?? '';
}

export function setToken(token: string): void {
  Cookies.set(TOKEN_COOKIE, token, { sameSite: 'lax' });
}

export function clearToken(): void {
  Cookies.remove(TOKEN_COOKIE);
}

let language = 'zh-CN';
/** The language the server answers its messages in. */
export function setApiLanguage(lang: string): void {
  language = lang;
}

async function post(name: CallName, body: unknown): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'accept-language': language };
  const token = getToken();
  if (token) headers.token = token;
  try {
    return await fetch(`${API_BASE}${CALL_PATHS[name]}`, { method: 'POST', headers, body: JSON.stringify(body ?? {}) });
  } catch {
    throw new ApiError(-1, '');
  }
}

interface Answer<T> {
  code: number;
  msg?: string;
  data: T;
  count?: number;
}

/** One API call, by its name in the contract; resolves with its data and count, rejects with an ApiError. */
export async function call<T>(name: CallName, body: unknown = {}): Promise<{ data: T; count: number }> {
  const res = await post(name, body);
  let answer: Answer<T>;
  try {
    answer = (await res.json()) as Answer<T>;
  } catch {
    throw new ApiError(-1, '');
  }
  if (answer.code !== 0) throw new ApiError(answer.code, answer.msg ?? '');
  return { data: answer.data, count: answer.count ?? 0 };
}

export async function login(username: string, password: string): Promise<void> {
  const { data } = await call<{ token: string }>('login', { username, password: sha256(password) });
  setToken(data.token);
}

export const info = async () => (await call<InfoData>('info')).data;

export const logout = () => call('logout').catch(() => undefined);

export const setStore = (id: number) => call('setCurrShop', { curshop: id });

/** The tag of the current store with exactly this hardware ID (upper case), or null. */
export async function findTag(hardwareId: string): Promise<Tag | null> {
  const { data } = await call<Tag[]>('tagList', { page: 1, limit: 1, hardwareId });
  return data.find((t) => t.hardwareId === hardwareId) ?? null;
}

export const bindTag = async (hardwareId: string, barcode: string) =>
  (await call<Tag>('bindTag', { hardwareId, barcode })).data;

/** Sets where a tag of the current store is (by its scanned ID); '' clears a field. */
export const setTagPlace = async (
  hardwareId: string,
  place: { aisle: string; bay: string; shelf: string; position: string },
) => (await call<Tag>('setTagPosition', { hardwareId, ...place })).data;

export const unbindTag = (id: number) => call<{ unbound: number }>('unbindTag', { ids: [id] });

/** A short green flash a clerk can spot on a shelf. */
export const LED_PATTERN = { colour: 'green', onMs: 300, offMs: 300, count: 10, repeat: 1 } as const;

export const flashLed = async (id: number) =>
  (await call<{ requestId: number; tasks: number }>('ledTag', { ids: [id], led: LED_PATTERN })).data;

/** Label pages (docs/PAGES.md): the tag shows page `page` for `staySeconds`, then page 1 again. */
export const showPage = async (id: number, page: number, staySeconds: number) =>
  (await call<{ requestId: number; tasks: number }>('showPage', { ids: [id], page, staySeconds })).data;

export const requestProgress = async (id: number) => (await call<RequestProgress>('requestProgress', { id })).data;

export const tagDelivery = async (id: number) => (await call<TagDelivery>('tagDelivery', { id })).data;

export const failedTags = (limit = 100) =>
  call<Tag[]>('tagList', { page: 1, limit, failed: true, sort: 'lastSeen', order: 'desc' });

/** A tag's screen as a PNG object URL (the caller revokes it), or null when it has none yet. */
export async function screenUrl(id: number, which: 'shown' | 'desired'): Promise<string | null> {
  const res = await post('tagScreen', { id, which });
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('image/png')) return null;
  return URL.createObjectURL(await res.blob());
}
