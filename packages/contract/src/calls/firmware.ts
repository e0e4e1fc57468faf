import {
  FIRMWARE_UPLOAD_MAX_BYTES,
  FirmwareChoice,
  FirmwareChoiceBody,
  StopTagUpgradeBody,
  UpgradeListBody,
  UpgradeStarted,
  UpgradeStationsBody,
  UpgradeStopped,
  UpgradeTagsBody,
  UpgradeTask,
  UploadedFirmware,
} from '../api/firmware';
import { Empty } from '../common';
import type { Messages } from '../errors';
import { call, change, list } from './define';

/** Firmware upgrades of base stations, their modules and tags (docs/PROTOCOL.md §5.12, §10). */
export const FIRMWARE_CALLS = {
  upgradeModules: call(
    '/res/update/onupdatemodules',
    'firmware.upgrade',
    UpgradeStationsBody,
    UpgradeStarted,
    "Upgrade the radio modules of the current store's base stations",
    change,
  ),
  upgradeStations: call(
    '/res/update/onUpdateap',
    'firmware.upgrade',
    UpgradeStationsBody,
    UpgradeStarted,
    "Upgrade the current store's base stations",
    change,
  ),
  upgradeTags: call(
    '/res/update/onUpdateesl',
    'firmware.upgrade',
    UpgradeTagsBody,
    UpgradeStarted,
    "Upgrade the current store's tags the firmware fits",
    change,
  ),
  stopTagUpgrade: call(
    '/res/update/onstopupdateesl',
    'firmware.upgrade',
    StopTagUpgradeBody,
    UpgradeStopped,
    "Stop the current store's tag upgrades that have not started",
    change,
  ),
  upgradeList: call(
    '/res/update/list',
    'firmware.upgrade',
    UpgradeListBody,
    UpgradeTask,
    "The current store's device upgrades and their progress",
    list,
  ),
  firmwareChoices: call(
    '/res/update/firmware',
    'firmware.upgrade',
    FirmwareChoiceBody,
    FirmwareChoice,
    'Firmware files available for upgrades',
    list,
  ),
  uploadFirmware: call(
    '/saas/sa/uploadver',
    'platform.tenants',
    Empty,
    UploadedFirmware,
    'Upload one firmware file (multipart/form-data, field `file`); checked by its content',
    { ...change, upload: FIRMWARE_UPLOAD_MAX_BYTES },
  ),
} as const;

/** What the console and the operation log call each operation, in both languages. */
export const FIRMWARE_CALL_NAMES = {
  upgradeModules: { 'zh-CN': '升级基站模块', en: 'Upgrade base station modules' },
  upgradeStations: { 'zh-CN': '升级基站', en: 'Upgrade base stations' },
  upgradeTags: { 'zh-CN': '升级价签', en: 'Upgrade tags' },
  stopTagUpgrade: { 'zh-CN': '停止价签升级', en: 'Stop a tag upgrade' },
  upgradeList: { 'zh-CN': '查询升级任务', en: 'List upgrades' },
  firmwareChoices: { 'zh-CN': '查询可用固件', en: 'List available firmware' },
  uploadFirmware: { 'zh-CN': '上传固件', en: 'Upload firmware' },
} as const satisfies Record<keyof typeof FIRMWARE_CALLS, Messages>;
