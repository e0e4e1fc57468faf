import { readFileSync } from 'node:fs';
import { CALLS, API_BASE as CONTRACT_BASE } from '@esl/contract';
import { describe, expect, it } from 'vitest';
import { callPathsSource } from '../../scripts/gen-call-paths';
import { API_BASE, CALL_PATHS } from './callPaths';

describe('CALL_PATHS', () => {
  it('is the contract path of every call (regenerate with npm run gen:paths -w apps/web)', () => {
    const fromContract = Object.fromEntries(Object.entries(CALLS).map(([name, def]) => [name, def.path]));
    expect(CALL_PATHS).toEqual(fromContract);
    expect(API_BASE).toBe(CONTRACT_BASE);
    expect(readFileSync(new URL('./callPaths.ts', import.meta.url), 'utf8')).toBe(callPathsSource());
  });
});
