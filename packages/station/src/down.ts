import { decodeMessage, type Message, type MessageName, messageForPath, parseTopic } from '@esl/contract/protocol';
import { onCmd } from './driver';
import { type LinkCore, onBlobChunk, onCancel, onJobs } from './upward';

/** What the down messages change on a StationLink beyond LinkCore. */
export interface DownCore extends LinkCore {
  offsetMs: number;
  config: Omit<Message<'config'>, 'wifi'> & { wifi?: { ssid: string } };
  cfgRev: number;
  heartbeatS: number;
  reportS: number;
  welcome(m: Message<'welcome'>): void;
  startTimers(restart?: boolean): void;
  heartbeat(): void;
  log(line: string): void;
  changed(): void;
}

/** A message on the station's down topics (docs/PROTOCOL.md 5): checked against its schema, then handled. */
export function onDown(link: DownCore, topic: string, payload: Buffer): void {
  const parsed = parseTopic(topic);
  if (parsed?.kind !== 'down' || parsed.tenantId !== link.key.tenantId || parsed.sn !== link.key.sn) {
    link.stats.badDown++;
    return;
  }
  if (parsed.name === 'blob') {
    link.stats.received.blobChunk = (link.stats.received.blobChunk ?? 0) + 1;
    onBlobChunk(link, parsed.hash, parsed.offset, payload);
    link.changed();
    return;
  }
  const name = messageForPath(`down/${parsed.name}`);
  if (!name) return;
  const decoded = decodeMessage(name, payload);
  if (!decoded.ok) {
    link.stats.badDown++;
    link.log(`dropped ${name}: ${decoded.error} ${decoded.detail}`);
    return;
  }
  link.stats.received[name] = (link.stats.received[name] ?? 0) + 1;
  dispatch(link, name, decoded.message);
  link.changed();
}

function dispatch(link: DownCore, name: MessageName, m: unknown): void {
  switch (name) {
    case 'welcome':
      link.welcome(m as Message<'welcome'>);
      break;
    case 'jobs':
      onJobs(link, m as Message<'jobs'>);
      break;
    case 'cancel':
      onCancel(link, m as Message<'cancel'>);
      break;
    case 'resack':
      for (const [id, rev] of (m as Message<'resack'>).ids) link.results.confirm(id, rev);
      break;
    case 'config':
      onConfig(link, m as Message<'config'>);
      break;
    case 'cmd':
      onCmd(
        {
          now: link.clock.now(),
          sessions: link.cmdSessions,
          send: (body) => void link.publish('cmdOutput', body).catch(() => {}),
          log: (line) => link.log(line),
          driver: link.driver,
        },
        m as Message<'cmd'>,
      );
      break;
    case 'time':
      // The server's clock: what its own clock is off by is corrected from here on.
      link.offsetMs = (m as Message<'time'>).t - link.localNow();
      break;
  }
}

function onConfig(link: DownCore, m: Message<'config'>): void {
  const { wifi, ...rest } = m;
  link.config = { ...rest, ...(wifi ? { wifi: { ssid: wifi.ssid } } : {}) };
  link.cfgRev = m.cfgRev;
  link.driver?.configured?.(m);
  const timersChanged = m.heartbeatS !== link.heartbeatS || m.reportS !== link.reportS;
  link.heartbeatS = m.heartbeatS;
  link.reportS = m.reportS;
  if (timersChanged) link.startTimers(true);
  link.log(`config rev ${m.cfgRev} applied${wifi ? ` (wifi ${wifi.ssid})` : ''}`);
  // Report the applied revision at once, as firmware would, rather than a heartbeat later.
  link.heartbeat();
}
