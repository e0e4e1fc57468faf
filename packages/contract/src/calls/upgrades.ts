import type { Messages } from '../errors';
import { pending } from './define';

/** Firmware upgrades of base stations, their modules and tags (not built yet). */
export const UPGRADE_CALLS = {
  upgradeModules: pending('/res/update/onupdatemodules', 'firmware.upgrade', 'Upgrade base-station modules', true),
  upgradeStations: pending('/res/update/onUpdateap', 'firmware.upgrade', 'Upgrade base stations', true),
  upgradeTags: pending('/res/update/onUpdateesl', 'firmware.upgrade', 'Upgrade tags', true),
  stopTagUpgrade: pending('/res/update/onstopupdateesl', 'firmware.upgrade', 'Stop a tag upgrade', true),
} as const;

/** What the console and the operation log call each operation, in both languages. */
export const UPGRADE_CALL_NAMES = {
  upgradeModules: { 'zh-CN': '升级基站模块', en: 'Upgrade base station modules' },
  upgradeStations: { 'zh-CN': '升级基站', en: 'Upgrade base stations' },
  upgradeTags: { 'zh-CN': '升级价签', en: 'Upgrade tags' },
  stopTagUpgrade: { 'zh-CN': '停止价签升级', en: 'Stop a tag upgrade' },
} as const satisfies Record<keyof typeof UPGRADE_CALLS, Messages>;
