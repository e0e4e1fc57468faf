import type { AccessPointStatus, Station } from '@esl/contract';
import type { StationRow } from '../../infra/db/schema';
import { configState, presentConfig } from './config';

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
    moduleFirmware: row.module_firmware,
    uptimeS: num(row.uptime_s),
    queueJobs: num(row.queue_jobs),
    queueBytes: num(row.queue_bytes),
    radioBusyPct: num(row.radio_busy_pct),
    tagsHeard: num(row.tags_heard),
    clockSkewMs: num(row.clock_skew_ms),
    // The WiFi password is write-only: only whether one is set leaves the server.
    config: presentConfig(row.config, row.wifi_password),
    configRev: Number(row.cfg_rev),
    configAppliedRev: num(row.cfg_applied_rev),
    configState: configState(Number(row.cfg_rev), num(row.cfg_applied_rev)),
    kind: row.kind === 'oepl' ? 'oepl' : 'station',
    apUrl: row.ap_url,
    alarms: row.alarms ? row.alarms.split(',') : [],
    ap: accessPoint(row.ap_state),
  };
}

/** The stored access-point state (JSON the gateway wrote from a checked heartbeat), or null. */
function accessPoint(json: string): AccessPointStatus | null {
  if (!json) return null;
  try {
    const a = JSON.parse(json) as Partial<Record<keyof AccessPointStatus, unknown>>;
    const n = (v: unknown) => (typeof v === 'number' ? v : null);
    return {
      apstate: n(a.apstate) ?? 0,
      runstate: n(a.runstate) ?? 0,
      lowBattery: n(a.lowBattery) ?? 0,
      timeouts: n(a.timeouts) ?? 0,
      fw: typeof a.fw === 'string' ? a.fw : null,
      channel: n(a.channel),
      tags: n(a.tags),
    };
  } catch {
    return null;
  }
}
