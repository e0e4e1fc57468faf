import { defineHandlers } from '../../api/handlers';
import * as users from '../users/service';
import { presentInfo } from './presenter';
import * as session from './service';

export const sessionHandlers = defineHandlers({
  login: async (ctx, { username, password }) => ({ token: await session.login(ctx, username, password) }),
  info: async (ctx) => {
    const { caller, shops, current, permissions } = await session.info(ctx);
    return presentInfo(caller, users.avatarUrl(ctx, caller.avatarKey), shops, current, permissions);
  },
  logout: async (ctx) => {
    await session.logout(ctx);
    return null;
  },
  changeRole: async (ctx, { role }) => ({ token: await session.changeRole(ctx, role) }),
  setCurrShop: async (ctx, { curshop }) => ({ curshop: await session.setCurrentStore(ctx, curshop) }),
  pdaConfig: (ctx) => session.pdaConfig(ctx),
  getStoreConf: (ctx) => session.pdaConfig(ctx),
});
