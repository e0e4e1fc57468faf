import type { InfoData, Permission, Role, Shop, ShopRef } from '@esl/contract';
import { create } from 'zustand';
import { request } from '../api/request';
import { i18n } from '../app/i18n';
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
};

export const useUserStore = create<UserState>()((set) => ({
  token: getToken(),
  ...signedOut,

  async login(username, password) {
    const { token } = await request('login', { username: username.trim(), password: digestPassword(password) });
    setToken(token);
    set({ token });
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
}));
