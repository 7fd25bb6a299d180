import { describe, expect, it } from 'vitest';
import { generatorVerdict } from './generator-verdict.js';

const G = {
  sent: 150,
  dropped: 0,
  late_sends: 0,
  schedule_lag_ms: { p50: 0.3, p99: 0.8, max: 2 },
  peak_in_flight: 12,
  cpu_ms_per_request: 0.84,
};

describe('generatorVerdict', () => {
  it('kept up: lag, peak in flight and CPU in one plain line', () => {
    const v = generatorVerdict(G, 300);
    expect(v.severity).toBe('ok');
    expect(v.line).toBe(
      'the load generator kept up: lag p99 0.8 ms (0.3% of the median latency), peak 12 in flight, CPU 0.84 ms a request',
    );
  });

  it('4 late sends of 150 with lag p99 7.6 ms against 300 ms is a note, not "fell behind"', () => {
    const v = generatorVerdict({ ...G, late_sends: 4, schedule_lag_ms: { p50: 0.4, p99: 7.6, max: 9 } }, 300);
    expect(v.severity).toBe('note');
    expect(v.line).toBe(
      'the load generator kept up: lag p99 7.6 ms (3% of the median latency), 4 of 150 sends over 5 ms late, peak 12 in flight, CPU 0.84 ms a request',
    );
  });

  it.each([
    [
      'a lag over a tenth of the median, 1% late',
      { late_sends: 15, schedule_lag_ms: { p50: 2, p99: 45, max: 80 } },
      300,
      'warning',
    ],
    [
      'the same lag, under 1% of sends late',
      { late_sends: 1, schedule_lag_ms: { p50: 2, p99: 45, max: 80 } },
      300,
      'note',
    ],
    [
      'a lag of 8 ms with nothing measured to weigh it against',
      { late_sends: 5, schedule_lag_ms: { p50: 2, p99: 8, max: 9 } },
      null,
      'warning',
    ],
    [
      'a lag of 8 ms against a 20 ms median',
      { late_sends: 5, schedule_lag_ms: { p50: 2, p99: 8, max: 9 } },
      20,
      'warning',
    ],
    ['any dropped arrival', { dropped: 1 }, 300, 'warning'],
    ['the closed model (no lag)', { schedule_lag_ms: null }, 300, 'ok'],
  ] as const)('%s: %s', (_name, over, median, severity) => {
    expect(generatorVerdict({ ...G, ...over }, median).severity).toBe(severity);
  });

  it('says why it fell behind, in proportion', () => {
    const v = generatorVerdict(
      { ...G, dropped: 3, late_sends: 15, schedule_lag_ms: { p50: 2, p99: 45, max: 80 } },
      300,
    );
    expect(v.line).toBe(
      'the load generator fell behind its schedule: 3 arrivals dropped at the in-flight cap; 15 of 150 sends over 5 ms late (10.0%), lag p99 45 ms against a median latency of 300 ms; the figures describe the generator as much as the service',
    );
  });
});
