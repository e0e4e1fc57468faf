import { describe, expect, it } from 'vitest';
import config from '../vite.config';

// The dev server must pass every server-served prefix through, or the editor silently falls
// back to a different font and avatars or thumbnails break in development.
describe('vite dev proxy', () => {
  it('forwards the API, uploads, fonts and the notice socket to the server', () => {
    const proxy = (config as { server?: { proxy?: Record<string, unknown> } }).server?.proxy ?? {};
    expect(Object.keys(proxy).sort()).toEqual(['/api', '/fonts', '/sys', '/uploads']);
  });
});
