import {
  AddStationBody,
  AddStationData,
  EditStationBody,
  OpenCmdWindowBody,
  OpenCmdWindowData,
  RenewStationSecretBody,
  RenewStationSecretData,
  SetStationConfigBody,
  SetStationConfigData,
  Station,
  StationCmdBody,
  StationCmdData,
  StationListBody,
  TestStationApBody,
  TestStationApData,
} from '../api/stations';
import { DeleteBody, DeleteData } from '../common';
import type { Messages } from '../errors';
import { call, change, list } from './define';

/** Base stations of the current store (with none set: STORE_NOT_SET, 1008). */
export const STATION_CALLS = {
  addStation: call(
    '/mgr/ap/add',
    'station.write',
    AddStationBody,
    AddStationData,
    'Add a base station; answers its MQTT secret once',
    change,
  ),
  renewStationSecret: call(
    '/mgr/ap/renewsecret',
    'station.write',
    RenewStationSecretBody,
    RenewStationSecretData,
    'Issue a new MQTT secret for a base station (beyond SPEC); answers it once, the old one stops working',
    change,
  ),
  editStation: call(
    '/mgr/ap/edit',
    'station.write',
    EditStationBody,
    Station,
    'Rename a base station, or change an OpenEPaperLink station’s access-point address (beyond SPEC; its bridge restarts)',
    change,
  ),
  testStationAp: call(
    '/mgr/ap/testap',
    'station.write',
    TestStationApBody,
    TestStationApData,
    'Read an OpenEPaperLink access point’s /sysinfo from the server (3 s, http/https only; beyond SPEC)',
  ),
  delStation: call('/mgr/ap/delete', 'station.write', DeleteBody, DeleteData, 'Delete base stations', change),
  stationRuntime: call(
    '/mgr/ap/runtimelist',
    'station.read',
    StationListBody,
    Station,
    'Base stations with runtime figures',
    list,
  ),
  openCmdWindow: call(
    '/mgr/ap/opencmdwindow',
    'station.operate',
    OpenCmdWindowBody,
    OpenCmdWindowData,
    'Open a command window on an online base station; its output comes back to this session only (notice station.cmd)',
    change,
  ),
  stationCmd: call(
    '/mgr/ap/cmd',
    'station.operate',
    StationCmdBody,
    StationCmdData,
    'Send one allowed command line to an open command window, or close it (beyond SPEC)',
    change,
  ),
  setStationConfig: call(
    '/mgr/ap/setconfig',
    'station.write',
    SetStationConfigBody,
    SetStationConfigData,
    'Set a base station’s desired configuration (beyond SPEC); the WiFi password is write-only',
    change,
  ),
} as const;

/** What the console and the operation log call each operation, in both languages. */
export const STATION_CALL_NAMES = {
  addStation: { 'zh-CN': '添加基站', en: 'Add a base station' },
  renewStationSecret: { 'zh-CN': '更换基站密钥', en: 'Renew a base station secret' },
  editStation: { 'zh-CN': '编辑基站', en: 'Edit a base station' },
  testStationAp: { 'zh-CN': '测试接入点连接', en: 'Test an access point connection' },
  delStation: { 'zh-CN': '删除基站', en: 'Delete base stations' },
  stationRuntime: { 'zh-CN': '查询基站状态', en: 'Read base station status' },
  openCmdWindow: { 'zh-CN': '打开基站命令窗口', en: 'Open a base station command window' },
  stationCmd: { 'zh-CN': '执行基站命令', en: 'Run a base station command' },
  setStationConfig: { 'zh-CN': '配置基站', en: 'Configure a base station' },
} as const satisfies Record<keyof typeof STATION_CALLS, Messages>;
