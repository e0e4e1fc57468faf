import {
  AddStationBody,
  AddStationData,
  OpenCmdWindowBody,
  OpenCmdWindowData,
  Station,
  StationListBody,
} from '../api/stations';
import { DeleteBody, DeleteData } from '../common';
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
    'Open a command window on a base station (recorded; delivered once the delivery layer exists)',
    change,
  ),
} as const;
