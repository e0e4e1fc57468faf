import type { InfoData, Permission, Role, Shop, ShopRef } from '@esl/contract';
import { create } from 'zustand';
import { i18n } from '../platform/i18n';
import { request } from '../platform/request';
import { getToken, removeToken, setToken } from '../utils/auth';
import { digestPassword } from '../utils/digest';
import { useTagsViewStore } from './tagsView';

export interface UserState {
  token: string | undefined;
  roles: Role[];
  name: string;
  username: string;
  avatar: string;
  introduction: string;
  shops: Shop[];
  curshop: ShopRef | null;
  permissions: Permission[];
  tenant: InfoData['tenant'];
  /** The one role the session acts as; '' = all of the user's roles. */
  role: InfoData['role'];
  /** The roles the user may act as (a switch is offered when there are several). */
  switchable: Role[];
  /**
   * True from sign-in until the guard has placed the new user: the sign-in page's redirect
   * target may be a page the previous user left, which this user may not open.
   */
  signingIn: boolean;
  /** Signs in with the typed password (digested here) and keeps the token in the cookie. */
  login: (username: string, password: string) => Promise<void>;
  /** Loads the signed-in user; rejects with a readable message when the answer is unusable. */
  getInfo: () => Promise<InfoData>;
  /** Revokes the session on the server (best effort) and forgets everything about it. */
  logout: () => Promise<void>;
  /** Forgets the token and the user without calling the server. */
  resetToken: () => void;
  /** Makes the store with this id the current one. */
  setCurrShop: (id: number) => Promise<void>;
  /**
   * SPEC.md §4 role change: acts as `role` ('' = all of my roles) with the derived token the
   * server answers (kept in the cookie, the old one is revoked), reloads the user, whose roles
   * regenerate the permitted routes, and closes every tab that can be closed.
   */
  changeRole: (role: InfoData['role']) => Promise<void>;
}

const signedOut = {
  roles: [] as Role[],
  name: '',
  username: '',
  avatar: '',
  introduction: '',
  shops: [] as Shop[],
  curshop: null,
  permissions: [] as Permission[],
  tenant: null,
  role: '' as const,
  switchable: [] as Role[],
};

export const useUserStore = create<UserState>()((set, get) => ({
  token: getToken(),
  signingIn: false,
  ...signedOut,

  async login(username, password) {
    const { token } = await request('login', { username: username.trim(), password: digestPassword(password) });
    setToken(token);
    set({ token, signingIn: true });
  },

  async getInfo() {
    const t = i18n.getFixedT(null, 'errors');
    const data = await request('info', undefined, { quiet: true });
    if (!data) throw new Error(t('verificationFailed'));
    if (!Array.isArray(data.roles) || data.roles.length === 0) throw new Error(t('rolesRequired'));
    set({
      roles: data.roles,
      name: data.name,
      username: data.username,
      avatar: data.avatar,
      introduction: data.introduction,
      shops: data.shop,
      curshop: data.curshop,
      permissions: data.permissions,
      tenant: data.tenant,
      role: data.role,
      switchable: data.switchable,
    });
    return data;
  },

  async logout() {
    try {
      await request('logout', undefined, { quiet: true });
    } catch {
      // The session may already be gone on the server; signing out locally is what matters.
    }
    removeToken();
    set({ token: undefined, ...signedOut });
    useTagsViewStore.getState().delAllViews();
  },

  resetToken() {
    removeToken();
    set({ token: undefined, ...signedOut });
  },

  async setCurrShop(id) {
    const { curshop } = await request('setCurrShop', { curshop: id });
    set({ curshop });
  },

  async changeRole(role) {
    const { token } = await request('changeRole', { role });
    // The old token is revoked now: every call from here on must carry the new one.
    setToken(token);
    set({ token });
    await get().getInfo();
    useTagsViewStore.getState().delAllViews();
  },
}));
