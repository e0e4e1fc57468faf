import type { Station } from '@esl/contract';
import type { StationRow } from '../../db/schema';

const num = (v: number | null) => (v === null ? null : Number(v));

export function presentStation(row: StationRow): Station {
  return {
    id: row.id,
    sn: row.sn,
    name: row.name,
    module: row.module,
    cpu: num(row.cpu),
    memory: num(row.memory),
    disk: num(row.disk),
    ip: row.ip,
    mac: row.mac,
    wifiPassword: row.wifi_password,
    ntpServer: row.ntp_server,
    gateway: row.gateway,
    mask: row.mask,
    serverAddress: row.server_address,
    serverPort: num(row.server_port),
    upgradeUrl: row.upgrade_url,
    firmware: row.firmware,
    lastHeartbeat: num(row.last_heartbeat),
    online: Number(row.online) === 1,
    createdAt: Number(row.created_at),
  };
}
