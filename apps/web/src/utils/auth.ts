import { TOKEN_COOKIE } from '@esl/contract';
import Cookies from 'js-cookie';

/** The session token lives in the ESL-Token cookie (SPEC.md §4). */
export function getToken(): string | undefined {
  return Cookies.get(TOKEN_COOKIE) || undefined;
}

export function setToken(token: string): void {
  Cookies.set(TOKEN_COOKIE, token, { sameSite: 'lax' });
}

export function removeToken(): void {
  Cookies.remove(TOKEN_COOKIE);
}
