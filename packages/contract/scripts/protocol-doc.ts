// Rewrites the generated blocks of docs/PROTOCOL.md from the protocol's schemas:
//   node --import tsx packages/contract/scripts/protocol-doc.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { applyBlocks } from '../src/protocol/doc';

const file = new URL('../../../docs/PROTOCOL.md', import.meta.url);
const before = readFileSync(file, 'utf8');
const after = applyBlocks(before);
if (after === before) {
  console.log('docs/PROTOCOL.md is up to date');
} else {
  writeFileSync(file, after);
  console.log('docs/PROTOCOL.md updated');
}
