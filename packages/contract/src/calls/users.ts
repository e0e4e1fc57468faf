import { AddUserBody, AlterUserBody, User, UserListBody } from '../api/users';
import { DeleteBody, DeleteData } from '../common';
import type { Messages } from '../errors';
import { call, change, list } from './define';

/** The users of a tenant. */
export const USER_CALLS = {
  userList: call('/user/UserList', 'user.read', UserListBody, User, 'List users', list),
  addUser: call('/user/addusr', 'user.write', AddUserBody, User, 'Add a user', change),
  delUser: call('/user/delusr', 'user.write', DeleteBody, DeleteData, 'Delete users', change),
  alterUser: call('/user/alertusr', 'session', AlterUserBody, User, 'Update a user (others need user.write)', change),
} as const;

/** What the console and the operation log call each operation, in both languages. */
export const USER_CALL_NAMES = {
  userList: { 'zh-CN': '查询用户', en: 'List users' },
  addUser: { 'zh-CN': '添加用户', en: 'Add a user' },
  delUser: { 'zh-CN': '删除用户', en: 'Delete users' },
  alterUser: { 'zh-CN': '修改用户', en: 'Update a user' },
} as const satisfies Record<keyof typeof USER_CALLS, Messages>;
