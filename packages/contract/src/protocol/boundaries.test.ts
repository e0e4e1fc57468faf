import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// Firmware authors, the simulator and a vendor bridge take this folder alone: it may lean on zod
// and on itself, never on the server, the console or the label renderer.
describe('the protocol folder', () => {
  it('imports only zod and its own files', () => {
    const dir = new URL('.', import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const source = readFileSync(new URL(file, dir), 'utf8');
      const specifiers = [...source.matchAll(/^(?:import|export)\b[^;]*?from '([^']+)'/gms)].map((m) => m[1]);
      for (const s of specifiers) expect(s === 'zod' || /^\.\/[a-z]+$/.test(s), `${file}: ${s}`).toBe(true);
    }
  });
});
