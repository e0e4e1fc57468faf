import { AddUserBody, AlterUserBody, User, UserListBody } from '../api/users';
import { DeleteBody, DeleteData } from '../common';
import { call, change, list } from './define';

/** The users of a tenant. */
export const USER_CALLS = {
  userList: call('/user/UserList', 'user.read', UserListBody, User, 'List users', list),
  addUser: call('/user/addusr', 'user.write', AddUserBody, User, 'Add a user', change),
  delUser: call('/user/delusr', 'user.write', DeleteBody, DeleteData, 'Delete users', change),
  alterUser: call('/user/alertusr', 'session', AlterUserBody, User, 'Update a user (others need user.write)', change),
} as const;
