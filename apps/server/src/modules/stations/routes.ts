import { defineHandlers } from '../../api/handlers';
import { presentStation } from './presenter';
import * as stations from './service';

export const stationHandlers = defineHandlers({
  stationRuntime: async (ctx, body) => {
    const { rows, count } = await stations.list(ctx, body);
    return { rows: rows.map(presentStation), count };
  },
  addStation: async (ctx, body) => {
    const { row, secret } = await stations.add(ctx, body);
    return { ...presentStation(row), secret, login: stations.loginOf(ctx, row.tenant_id, row.sn) };
  },
  editStation: async (ctx, body) => presentStation(await stations.edit(ctx, body)),
  testStationAp: (ctx, { apUrl }) => stations.testAp(ctx, apUrl),
  renewStationSecret: (ctx, { id }) => stations.renewSecret(ctx, id),
  delStation: async (ctx, { ids }) => ({ deleted: await stations.remove(ctx, ids) }),
  openCmdWindow: (ctx, { id }) => stations.openCommandWindow(ctx, id),
  stationCmd: (ctx, body) => stations.runCommand(ctx, body),
  setStationConfig: (ctx, body) => stations.setConfig(ctx, body),
});
