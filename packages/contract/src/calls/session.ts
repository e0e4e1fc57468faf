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
  avatar: call(
    '/user/avatar',
    'session',
    Empty,
    AvatarData,
    'Upload the avatar (multipart, JPG or PNG ≤ 2 MB)',
    change,
  ),
  pdaConfig: call('/user/pdaconf', 'session', Empty, PdaConfigData, 'PDA configuration for the navbar QR code'),
} as const;
