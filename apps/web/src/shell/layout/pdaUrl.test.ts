import { describe, expect, it } from 'vitest';
import { pdaUrl } from './pdaUrl';

describe('the handheld page’s address in the PDA QR code', () => {
  it('is /pda/ on the server, with the tenant and the store as hints', () => {
    expect(pdaUrl({ server: 'https://esl.example.com', tenant: { id: 3 }, store: { id: 12 } })).toBe(
      'https://esl.example.com/pda/?tenant=3&store=12',
    );
    expect(pdaUrl({ server: 'http://10.0.0.5:8080/', tenant: { id: 3 }, store: null })).toBe(
      'http://10.0.0.5:8080/pda/?tenant=3',
    );
  });
});
