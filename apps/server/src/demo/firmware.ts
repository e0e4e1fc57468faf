import { TAG_MODELS } from '@esl/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../infra/db/schema';
import { checkFirmwareFile, STORED_KIND } from '../modules/firmware/file';
import * as repo from '../modules/firmware/repository';

/**
 * `npm run demo`: firmware files for the simulated stations (model SIM-AP) and every tag model,
 * built with the simulator's builder, so the upgrade page has something to install. Stored once;
 * a restarted demo finds them by hash.
 */
export async function seedDemoFirmware(db: Kysely<Database>, now: number): Promise<number> {
  const { buildFirmwareFile } = await import('@esl/simulator');
  const files = [
    buildFirmwareFile({ kind: 'station', version: '1.1.0', models: ['SIM-AP'], name: 'demo station 1.1.0' }),
    buildFirmwareFile({
      kind: 'module',
      version: '1.1.0',
      models: ['SIM-AP'],
      size: 16 * 1024,
      name: 'demo module 1.1.0',
    }),
    buildFirmwareFile({
      kind: 'tag',
      version: '1.1.0',
      hw: TAG_MODELS.map((m) => m.code),
      size: 8 * 1024,
      name: 'demo tag 1.1.0',
    }),
  ];
  let added = 0;
  for (const bytes of files) {
    const checked = checkFirmwareFile(bytes);
    if (!checked || (await repo.firmwareByHash(db, checked.hash))) continue;
    const { header } = checked;
    await repo.insertFirmware(db, {
      kind: STORED_KIND[header.kind],
      version: header.version,
      name: header.name ?? header.version,
      bytes,
      hash: checked.hash,
      payloadHash: checked.payloadHash,
      models: header.models ?? [],
      hw: header.hw ?? [],
      now,
    });
    added++;
  }
  return added;
}
