// Builds a firmware file (docs/PROTOCOL.md §10) for tests and demos:
//   npm run fwfile -w @esl/simulator -- --kind station --version 2.0.0 --models SIM-AP --out ap-2.0.0.eslfw
//   npm run fwfile -w @esl/simulator -- --kind tag --version 1.1.0 --hw 05,0A --size 8192 --out tag.eslfw
// `--payload FILE` takes the payload from a file; otherwise made-up bytes of `--size` (64 KiB).
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FIRMWARE_KINDS, type FirmwareKind } from '@esl/contract/protocol';
import { buildFirmwareFile } from './station/firmware';

export function fwfile(argv: string[]): { out: string; bytes: number } {
  const { values } = parseArgs({
    args: argv,
    options: {
      kind: { type: 'string' },
      version: { type: 'string' },
      models: { type: 'string' },
      hw: { type: 'string' },
      size: { type: 'string' },
      payload: { type: 'string' },
      name: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const kind = values.kind as FirmwareKind;
  if (!FIRMWARE_KINDS.includes(kind)) throw new Error(`--kind must be one of ${FIRMWARE_KINDS.join(', ')}`);
  if (!values.version) throw new Error('--version is required');
  if (!values.out) throw new Error('--out is required');
  const list = (s?: string) =>
    s
      ? s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : undefined;
  const file = buildFirmwareFile({
    kind,
    version: values.version,
    models: list(values.models),
    hw: list(values.hw),
    size: values.size ? Number(values.size) : undefined,
    payload: values.payload ? new Uint8Array(readFileSync(values.payload)) : undefined,
    name: values.name,
  });
  writeFileSync(values.out, file);
  return { out: values.out, bytes: file.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const { out, bytes } = fwfile(process.argv.slice(2));
    console.log(`${out}: ${bytes} bytes`);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
}
