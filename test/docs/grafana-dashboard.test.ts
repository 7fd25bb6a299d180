/**
 * deploy/grafana/chatbench.json names only series chatbench exports (telemetry/series.ts), so a
 * renamed series cannot leave an empty panel behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLiveSeries } from '../../src/telemetry/series.js';

const dashboard = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'deploy', 'grafana', 'chatbench.json'), 'utf8'),
) as { panels: Array<{ targets?: Array<{ expr: string }> }> };

describe('Grafana dashboard', () => {
  it('every chatbench_ series its panels query is one the run exports', () => {
    const series = createLiveSeries({ redact: (v) => v, steps: true, set: 's', mode: 'stream' });
    series.observeTick({
      elapsed_ms: 0,
      offered: 0,
      sent: 0,
      done: 0,
      in_flight: 0,
      queued: 0,
      ok: 0,
      rate_limited: 0,
      errors: 0,
      dropped: 0,
      late: 0,
      current_rate_per_s: 0,
      ttfp_p95_ms: null,
      health: { offset_ms: 0, ms: 1, status: 200, error: null },
      health_probes: 1,
      health_failures: 0,
    });
    series.observeLoopDelay(1, 2);
    const exported = new Set(
      series
        .families()
        .flatMap((f) => (f.kind === 'histogram' ? [`${f.name}_bucket`, `${f.name}_sum`, `${f.name}_count`] : [f.name])),
    );
    const used = dashboard.panels.flatMap((p) => p.targets ?? []).flatMap((t) => t.expr.match(/chatbench_\w+/g) ?? []);
    expect(used.length).toBeGreaterThan(10);
    expect(used.filter((name) => !exported.has(name))).toEqual([]);
  });
});
