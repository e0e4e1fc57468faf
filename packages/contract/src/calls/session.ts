import {
  AvatarData,
  ChangeRoleBody,
  ChangeRoleData,
  InfoData,
  LoginBody,
  LoginData,
  PdaConfigData,
  SetCurrShopBody,
  SetCurrShopData,
} from '../api/session';
import { Empty, Nothing } from '../common';
import { AVATAR_MAX_BYTES } from '../constants';
import type { Messages } from '../errors';
import { call, change } from './define';

/** Signing in and out, the caller's own account, the current store. */
export const SESSION_CALLS = {
  login: call('/user/login', 'public', LoginBody, LoginData, 'Sign in; answers a session token'),
  info: call('/user/info', 'session', Empty, InfoData, 'The signed-in user, their stores and current store'),
  logout: call('/user/logout', 'session', Empty, Nothing, 'Revoke the current session', change),
  setCurrShop: call(
    '/user/setcurrshop',
    'session',
    SetCurrShopBody,
    SetCurrShopData,
    'Set the current store (JSON or form body)',
    change,
  ),
  changeRole: call(
    '/user/changerole',
    'session',
    ChangeRoleBody,
    ChangeRoleData,
    "Act as one role (or '' for all of them): answers a derived token and revokes the caller's",
    change,
  ),
  avatar: call('/user/avatar', 'session', Empty, AvatarData, 'Upload the avatar (multipart, JPG or PNG ≤ 2 MB)', {
    ...change,
    upload: AVATAR_MAX_BYTES,
  }),
  pdaConfig: call('/user/pdaconf', 'session', Empty, PdaConfigData, 'PDA configuration for the navbar QR code'),
} as const;

/** What the console and the operation log call each operation, in both languages. */
export const SESSION_CALL_NAMES = {
  login: { 'zh-CN': '登录', en: 'Sign in' },
  info: { 'zh-CN': '读取用户信息', en: 'Read user information' },
  logout: { 'zh-CN': '退出登录', en: 'Sign out' },
  setCurrShop: { 'zh-CN': '切换门店', en: 'Switch store' },
  changeRole: { 'zh-CN': '切换角色', en: 'Switch role' },
  avatar: { 'zh-CN': '上传头像', en: 'Upload an avatar' },
  pdaConfig: { 'zh-CN': '读取 PDA 配置', en: 'Read the PDA configuration' },
} as const satisfies Record<keyof typeof SESSION_CALLS, Messages>;
