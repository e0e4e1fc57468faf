import type { CmdOutputMsg, StationKey } from '@esl/contract/protocol';
import type { StationLink as StationControl } from '../../api/station-control';
import { configMessage, readConfig } from '../../modules/stations/config';
import { CmdSessions } from './commands';
import type { GatewayCore } from './core';
import * as repo from './repository';

/*
 * A station's configuration and its command window (docs/PROTOCOL.md §5.6, §5.11): the desired
 * configuration sent when the station reports another revision or the console changes it, and the
 * command sessions the stations module opens, feeds and closes, their output to the console.
 */

export interface ConfigAndCommands {
  /** What the stations module calls (api/station-control.ts). */
  readonly control: StationControl;
  /**
   * The station said which configuration revision it runs (hello, heartbeat): stored, and when it
   * is not the desired one, the desired configuration is sent (again).
   */
  reportedConfig(key: StationKey, desired: repo.DesiredConfig, reported: number): Promise<void>;
  onCmdOutput(station: repo.StationIdentity, m: CmdOutputMsg): Promise<void>;
  /** Expires command sessions idle past their lifetime. */
  sweep(now: number): void;
}

export function configAndCommands(core: GatewayCore, cmdTtlS?: number): ConfigAndCommands {
  const { db, link, now } = core;
  const cmds = new CmdSessions(cmdTtlS);

  async function reportedConfig(key: StationKey, desired: repo.DesiredConfig, reported: number) {
    const rev = Number(desired.cfg_rev);
    if (desired.cfg_applied_rev === null || Number(desired.cfg_applied_rev) !== reported) {
      const heartbeatS = reported === rev && rev > 0 ? readConfig(desired.config).heartbeatS : null;
      await repo.setAppliedRev(db, desired.id, reported, heartbeatS);
    }
    if (rev > 0 && reported !== rev) await sendConfig(key, desired);
  }

  async function sendConfig(key: StationKey, d: repo.DesiredConfig) {
    await link.send(key, 'config', configMessage(readConfig(d.config), Number(d.cfg_rev), d.wifi_password));
  }

  async function onCmdOutput(station: repo.StationIdentity, m: CmdOutputMsg) {
    const s = cmds.of(m.session, station.id, now());
    if (!s) return; // a closed or expired window, or another station's session
    core.notices.toSession(s.tenantId, s.owner, {
      type: 'station.cmd',
      id: station.id,
      session: m.session,
      seq: m.seq,
      out: m.out,
      ...(m.exit === undefined ? {} : { exit: m.exit }),
    });
  }

  const control: StationControl = {
    async configChanged(stationId) {
      const d = await repo.desiredConfig(db, stationId);
      if (!d || !Number(d.online) || !Number(d.cfg_rev)) return false;
      await sendConfig({ tenantId: d.tenant_id, sn: d.sn }, d);
      return true;
    },
    async openCmd(stationId, owner) {
      const d = await repo.desiredConfig(db, stationId);
      if (!d || !Number(d.online)) return null;
      const s = cmds.open(stationId, d.tenant_id, owner, now());
      await link.send({ tenantId: d.tenant_id, sn: d.sn }, 'cmd', {
        v: 1,
        session: s.id,
        seq: s.seq++,
        open: { ttlS: cmds.ttlS },
      });
      return { session: s.id, ttlS: cmds.ttlS };
    },
    async cmd(stationId, owner, session, what) {
      const s = cmds.use(session, stationId, owner, now());
      if (!s) return null;
      const d = await repo.desiredConfig(db, stationId);
      if (!d) return null;
      const seq = s.seq++;
      if (what.close) cmds.close(session, now());
      await link.send({ tenantId: d.tenant_id, sn: d.sn }, 'cmd', {
        v: 1,
        session,
        seq,
        ...(what.line === undefined ? {} : { line: what.line }),
        ...(what.close ? { close: true } : {}),
      });
      return { seq };
    },
  };

  return { control, reportedConfig, onCmdOutput, sweep: (t) => cmds.sweep(t) };
}
