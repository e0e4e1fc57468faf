import { describe, expect, it } from 'vitest';
import { clientDigest, hashPassword, verifyPassword } from './passwords';

describe('passwords', () => {
  it('stores argon2id of the client digest at the OWASP baseline cost by default', async () => {
    const digest = clientDigest('demo123');
    expect(digest).toBe('d3ad9315b7be5dd53b31a273b3b3aba5defe700808305aa16a3062b76658a791');
    const stored = await hashPassword(digest);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, digest)).toBe(true);
    expect(await verifyPassword(stored, digest.toUpperCase())).toBe(true);
    expect(await verifyPassword(stored, clientDigest('demo124'))).toBe(false);
    expect(await verifyPassword('not a hash', digest)).toBe(false);
  });
});
