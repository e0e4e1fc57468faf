import { defineHandlers } from '../../api/handlers';
import * as users from './service';

export const userHandlers = defineHandlers({
  userList: (ctx, body) => users.list(ctx, body),
  addUser: (ctx, body) => users.add(ctx, body),
  delUser: async (ctx, { ids }) => ({ deleted: await users.remove(ctx, ids) }),
  alterUser: (ctx, body) => users.alter(ctx, body),
  avatar: async (ctx) => ({ avatar: users.avatarUrl(ctx, await users.uploadAvatar(ctx)) }),
});
