/** The first bytes of every firmware file (docs/PROTOCOL.md §10). */
const FIRMWARE_MAGIC = 'ESLFW1';

/**
 * A first look at a chosen file before sending it: firmware files start with `ESLFW1`. The server
 * checks the whole file (header, size, SHA-256) whatever this says.
 */
export async function looksLikeFirmware(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, FIRMWARE_MAGIC.length).arrayBuffer());
  return [...FIRMWARE_MAGIC].every((c, i) => head[i] === c.charCodeAt(i));
}
