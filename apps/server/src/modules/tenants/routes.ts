import { defineHandlers } from '../../api/handlers';
import { presentBaseInfo, presentFirmware, presentTenant } from './presenter';
import { listFirmware, listTenants } from './repository';
import * as tenants from './service';

/** Platform calls (/saas/sa/*) and a tenant's own settings (/user/getbaseinfo …). */
export const tenantHandlers = defineHandlers({
  tenantList: async (ctx, body) => {
    const { rows, count } = await listTenants(ctx.services.db, body);
    return { rows: rows.map(presentTenant), count };
  },
  addTenant: async (ctx, body) => presentTenant(await tenants.addTenant(ctx, body)),
  renewTenantKey: (ctx, { id }) => tenants.renewKeys(ctx, id),
  resetAccountPwd: async (ctx, { id, pwd }) => {
    await tenants.resetAccountPassword(ctx, id, pwd);
    return null;
  },
  delTenant: async (ctx, { ids }) => ({ deleted: await tenants.deleteTenants(ctx, ids) }),
  firmwareList: async (ctx, body) => {
    const { rows, count } = await listFirmware(ctx.services.db, body);
    return { rows: rows.map(presentFirmware), count };
  },

  baseInfo: async (ctx) => presentBaseInfo(await tenants.ownTenant(ctx)),
  recreateKey: async (ctx) => {
    const row = await tenants.alterOwnTenant(ctx, tenants.newKeys());
    return { ck: row.ck, sk: row.sk };
  },
  alterAppId: async (ctx, { appid }) => presentBaseInfo(await tenants.alterOwnTenant(ctx, { appid })),
  alterTenantInfo: async (ctx, body) => presentBaseInfo(await tenants.alterOwnTenant(ctx, body)),
});
