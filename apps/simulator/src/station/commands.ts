import { STATION_COMMANDS } from '@esl/contract/protocol';

/** What the command window may look at. */
export interface CommandView {
  uptimeS: number;
  queue: number;
  outbox: number;
  channel: number;
  channels: readonly number[];
  tagsHeard: number;
  localNow: number;
  logLines: readonly string[];
  /** A noise reading for `scan`, dBm. */
  noiseDbm: () => number;
}

export interface CommandOutput {
  out: string;
  exit: number;
  /** The station should reboot after answering. */
  reboot?: boolean;
}

/** One command-window line; anything outside the allow-list is refused with exit 127. */
export function runCommand(line: string, v: CommandView): CommandOutput {
  const [word = '', ...args] = line.trim().split(/\s+/);
  if (!(STATION_COMMANDS as readonly string[]).includes(word)) return { out: `${word}: not allowed\n`, exit: 127 };
  switch (word) {
    case 'status':
      return {
        out: `uptime ${v.uptimeS} s, queue ${v.queue} jobs, outbox ${v.outbox}, channel ${v.channel}, tags heard ${v.tagsHeard}\n`,
        exit: 0,
      };
    case 'ping':
      return { out: `pong ${v.localNow}\n`, exit: 0 };
    case 'scan':
      return { out: `${v.channels.map((c) => `ch ${c}: ${Math.round(v.noiseDbm())} dBm`).join('\n')}\n`, exit: 0 };
    case 'channel':
      return { out: `channel ${v.channel}\n`, exit: 0 };
    case 'log': {
      const n = Math.min(200, Number(args.find((a) => /^\d+$/.test(a)) ?? 20));
      return { out: `${v.logLines.slice(-n).join('\n')}\n`, exit: 0 };
    }
    case 'reboot':
      return { out: 'rebooting\n', exit: 0, reboot: true };
  }
  return { out: `${word}: not allowed\n`, exit: 127 };
}
