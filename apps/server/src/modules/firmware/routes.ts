import { defineHandlers } from '../../api/handlers';
import { presentTask } from './presenter';
import * as firmware from './service';

/** Firmware files and upgrades (/res/update/*, /saas/sa/uploadver). */
export const firmwareHandlers = defineHandlers({
  uploadFirmware: (ctx) => firmware.upload(ctx),
  firmwareChoices: async (ctx, { kind }) => {
    const rows = await firmware.choices(ctx, kind);
    return { rows, count: rows.length };
  },
  upgradeStations: (ctx, body) => firmware.upgradeStations(ctx, body, 'apfw'),
  upgradeModules: (ctx, body) => firmware.upgradeStations(ctx, body, 'modulefw'),
  upgradeTags: (ctx, body) => firmware.upgradeTags(ctx, body),
  stopTagUpgrade: (ctx) => firmware.stopTags(ctx),
  upgradeList: async (ctx, body) => {
    const { rows, count } = await firmware.list(ctx, body);
    return { rows: rows.map(presentTask), count };
  },
});
