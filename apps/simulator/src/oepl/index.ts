// The emulated OpenEPaperLink access point (docs/OEPL.md): `startOeplAp()` for tests and `--oepl-ap`.
import type { VirtualClock } from '../clock';
import { type EmuApOptions, OeplApEmulator } from './ap';
import { type EmuApServer, serveOeplAp } from './http';

export { type EmuApOptions, type EmuReply, OeplApEmulator, TRANSFER_MS_296x128 } from './ap';
export { type EmuApServer, serveOeplAp } from './http';
export { mapToPalette } from './palette';
export { type EmuScreen, EmuTag, type QueuedImage } from './tag';
export { EMU_TAG_TYPES, type EmuTagType, rawBytes } from './types';
export { oeplWallStation } from './wall';

export interface OeplAp {
  ap: OeplApEmulator;
  server: EmuApServer;
  url: string;
  stop(): Promise<void>;
}

/** `count` tags of the given hwTypes in turn, MACs 0000EE00000000NN… (stable). */
export function emuTags(count: number, hwTypes: readonly number[] = [0x31]): { mac: string; hwType: number }[] {
  return Array.from({ length: count }, (_, i) => ({
    mac: `0000EE${i.toString(16).toUpperCase().padStart(10, '0')}`,
    hwType: hwTypes[i % hwTypes.length],
  }));
}

/** Starts an emulated AP and its HTTP/WebSocket server (127.0.0.1, a free port unless `port`). */
export async function startOeplAp(
  options: EmuApOptions & { clock: VirtualClock; port?: number; host?: string },
): Promise<OeplAp> {
  const ap = new OeplApEmulator(options);
  ap.start();
  const server = await serveOeplAp(ap, { port: options.port, host: options.host });
  return {
    ap,
    server,
    url: server.url,
    stop: async () => {
      ap.stop();
      await server.close();
    },
  };
}
