import { describe, expect, it } from 'vitest';
import { UsageError } from '../../errors.js';
import { simTimeScale, speedUp, speedupOf } from './speedup.js';

describe('speedUp', () => {
  it('divides schedule lengths and request counts, and leaves everything else', async () => {
    expect(
      await speedUp(
        { duration: '60s', warmup: '30s', requests: 500, rate: 20, stages: '30s:5,2m:50', dataset: 'q.csv' },
        100,
      ),
    ).toEqual({
      duration: '600ms',
      warmup: '300ms',
      requests: 5,
      stages: '300ms:5,1200ms:50',
    });
  });
  it('divides each --think-time form', async () => {
    expect(await speedUp({ 'think-time': '2s..8s' }, 100)).toEqual({ 'think-time': '20ms..80ms' });
    expect(await speedUp({ 'think-time': '5s' }, 1000)).toEqual({ 'think-time': '5ms' });
    expect(await speedUp({ 'think-time': 'lognormal:3s,p99=15s' }, 100)).toEqual({
      'think-time': 'lognormal:30ms,p99=150ms',
    });
  });
  it('keeps a zero warm-up or cool-down zero, and does not touch --timeout (how long a request may take)', async () => {
    expect(
      await speedUp({ duration: '60s', warmup: '0s', cooldown: '0s', 'step-duration': '1ms', timeout: '180s' }, 100),
    ).toEqual({
      duration: '600ms',
      warmup: '0ms',
      cooldown: '0ms',
      'step-duration': '1ms',
    });
  });
  it('keeps at least 1 ms and 1 request, and leaves what it cannot read to the command', async () => {
    expect(await speedUp({ duration: '1ms', requests: 3, cooldown: 'soon' }, 600)).toEqual({
      duration: '1ms',
      requests: 1,
      cooldown: 'soon',
    });
  });
  it('reads the factor from CHATBENCH_TEST_SPEEDUP, refusing one below 1', () => {
    expect(speedupOf({})).toBeNull();
    expect(speedupOf({ CHATBENCH_TEST_SPEEDUP: '600' })).toBe(600);
    expect(simTimeScale({ CHATBENCH_TEST_SPEEDUP: '4' })).toBe(0.25);
    expect(() => speedupOf({ CHATBENCH_TEST_SPEEDUP: '0.5' })).toThrow(UsageError);
  });
});
