import { type LoaderFunctionArgs, redirect } from 'react-router';
import { feedback } from '../platform/feedback';
import { i18n } from '../platform/i18n';
import { chainAllows, findChain, homePath, normalisePath } from '../platform/permission';
import { useUserStore } from '../store/user';
import { getToken } from '../utils/auth';
import { routes, WHITE_LIST } from './routes';

/** `/login?redirect=<wanted path>`, the path kept readable (slashes not escaped). */
export function loginPath(wanted: string): string {
  if (wanted === '/' || wanted === '') return '/login';
  return `/login?redirect=${encodeURIComponent(wanted).replace(/%2F/gi, '/')}`;
}

/**
 * The navigation guard of SPEC.md §2, run before every navigation (the root route's loader):
 * no token → only the white list, anything else to /login with the wanted path; a token on
 * /login → /; the first visit with a token loads the user (failure: token cleared, error or
 * 'Has Error' shown, back to /login); then the route's roles decide (refused → /401; right after
 * sign-in, when the redirect target was left by another user, → the new user's home).
 */
export async function guard({ request }: LoaderFunctionArgs): Promise<null> {
  const url = new URL(request.url);
  const path = normalisePath(url.pathname);
  const wanted = `${url.pathname}${url.search}`;
  const store = useUserStore.getState();
  const token = getToken();

  if (!token) {
    if (store.token || store.roles.length > 0) store.resetToken();
    if (WHITE_LIST.includes(path)) return null;
    throw redirect(loginPath(wanted));
  }
  if (store.token !== token) useUserStore.setState({ token, roles: [] });
  if (path === '/login') throw redirect('/');

  if (useUserStore.getState().roles.length === 0) {
    try {
      await useUserStore.getState().getInfo();
    } catch (error) {
      useUserStore.getState().resetToken();
      const text = error instanceof Error && error.message ? error.message : i18n.t('errors:hasError');
      feedback().message.error({ content: text, duration: 5 });
      throw redirect(loginPath(wanted));
    }
  }

  const { roles, signingIn } = useUserStore.getState();
  if (signingIn) useUserStore.setState({ signingIn: false });
  if (path === '/') throw redirect(homePath(roles));
  const chain = findChain(routes, path);
  if (chain.length > 0 && !chainAllows(chain, roles)) {
    // Just signed in and sent where the previous user was: this user's home, not a 401.
    throw redirect(signingIn ? homePath(roles) : '/401');
  }
  return null;
}
