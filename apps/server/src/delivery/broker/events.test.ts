import { describe, expect, it } from 'vitest';
import { describeBrokerEvent } from './events';

describe('describeBrokerEvent', () => {
  it('writes a refused login to the operator’s log (never a tenant’s), without the text the client chose', () => {
    const line = describeBrokerEvent({
      type: 'station.auth_failed',
      reason: 'badSecret',
      station: { tenantId: 4, sn: 'AP1' },
      username: '4.AP1',
      clientId: '4.AP1-chosen-by-anyone',
      address: '10.0.0.9',
      lockout: true,
    });
    expect(line).toMatchObject({ tenantId: null, level: 'warn', event: 'station.auth_failed' });
    expect(line.message).toContain('badSecret');
    expect(line.message).toContain('10.0.0.9');
    expect(line.message).toContain('wait');
    expect(line.message).not.toContain('chosen');
    expect(line.message).not.toContain('AP1');
  });

  it('names no tenant when the username names none, and bounds what the client chose', () => {
    const line = describeBrokerEvent({
      type: 'station.auth_failed',
      reason: 'badUsername',
      station: null,
      username: `#${'x'.repeat(5000)}`,
      clientId: 'c',
      address: '10.0.0.9',
      lockout: false,
    });
    expect(line.tenantId).toBeNull();
    expect(line.message.length).toBeLessThan(300);
    expect(
      describeBrokerEvent({ type: 'station.connected', station: { tenantId: 4, sn: 'AP1' }, address: 'a' }).level,
    ).toBe('info');
  });
});
