import { describe, expect, it } from 'vitest';
import { startSimulator } from './simulator';

describe('startSimulator', () => {
  it('gives firmware support and faults to every station that does not say otherwise', async () => {
    // No broker on this port: the stations keep retrying; what they were built with is what counts.
    const sim = await startSimulator({
      url: 'mqtt://127.0.0.1:9',
      stations: [
        { tenantId: 1, sn: 'A', secret: 'x' },
        { tenantId: 1, sn: 'B', secret: 'x', firmware: false },
        { tenantId: 1, sn: 'C', secret: 'x', firmware: { rollBack: true } },
      ],
      firmware: { disconnectAt: 0.5 },
      speed: 0,
    });
    try {
      expect(sim.station('A').firmwarePlan?.faults).toEqual({ disconnectAt: 0.5 });
      expect(sim.station('B').firmwarePlan).toBeNull();
      expect(sim.station('C').firmwarePlan?.faults).toEqual({ rollBack: true });
    } finally {
      await sim.stop();
    }
  });
});
