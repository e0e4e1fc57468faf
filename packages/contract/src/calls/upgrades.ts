import { pending } from './define';

/** Firmware upgrades of base stations, their modules and tags (not built yet). */
export const UPGRADE_CALLS = {
  upgradeModules: pending('/res/update/onupdatemodules', 'firmware.upgrade', 'Upgrade base-station modules', true),
  upgradeStations: pending('/res/update/onUpdateap', 'firmware.upgrade', 'Upgrade base stations', true),
  upgradeTags: pending('/res/update/onUpdateesl', 'firmware.upgrade', 'Upgrade tags', true),
  stopTagUpgrade: pending('/res/update/onstopupdateesl', 'firmware.upgrade', 'Stop a tag upgrade', true),
} as const;
