import { describe, expect, it } from 'vitest';
import { epochNow, estimateOffset } from './clock.js';

describe('estimateOffset', () => {
  it('takes the sample with the shortest round trip, the remote time against the midpoint', () => {
    const offset = estimateOffset([
      { sentAt: 100, remoteAt: 160, receivedAt: 120 }, // rtt 20: queueing on the way
      { sentAt: 200, remoteAt: 251.5, receivedAt: 203 }, // rtt 3: the best
      { sentAt: 300, remoteAt: 349, receivedAt: 310 },
    ]);
    expect(offset).toEqual({ offset_ms: 50, uncertainty_ms: 1.5, samples: 3 });
  });

  it('refuses no samples and a reply before its request', () => {
    expect(() => estimateOffset([])).toThrow('no clock samples');
    expect(() => estimateOffset([{ sentAt: 10, remoteAt: 5, receivedAt: 9 }])).toThrow('before it was sent');
  });

  it('epochNow is wall-clock time from the monotonic clock', () => {
    const a = epochNow();
    const b = epochNow();
    expect(b).toBeGreaterThanOrEqual(a);
    expect(Math.abs(a - Date.now())).toBeLessThan(1_000);
  });
});
