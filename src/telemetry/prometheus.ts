/**
 * @module telemetry/prometheus
 * The live series in the Prometheus text format, through prom-client's registry (its escaping,
 * layout and content type): each family is a collector whose values are made from the series when
 * the registry is read, so nothing is encoded between scrapes. The remote write reads the same
 * registry (remote-write.ts), so both carry the same series.
 */
import { Registry } from 'prom-client';
import type { Family, LiveSeries } from './series.js';

/** A value as prom-client's registry takes it from a collector's `get()`. */
interface PromValue {
  readonly value: number;
  readonly labels: Record<string, string | number>;
  readonly metricName?: string;
}

/** The samples of one family, as the text format lays them out (histograms: cumulative `_bucket`s with `le`, `_sum`, `_count`). */
export function promValues(family: Family): PromValue[] {
  if (family.kind !== 'histogram') return family.points.map((p) => ({ value: p.value, labels: { ...p.labels } }));
  return family.points.flatMap((p) => {
    let cumulative = 0;
    const buckets = p.counts.map((n, i) => {
      cumulative += n;
      return {
        value: cumulative,
        labels: { ...p.labels, le: i < family.bounds.length ? String(family.bounds[i]) : '+Inf' },
        metricName: `${family.name}_bucket`,
      };
    });
    return [
      ...buckets,
      { value: p.sum, labels: { ...p.labels }, metricName: `${family.name}_sum` },
      { value: p.count, labels: { ...p.labels }, metricName: `${family.name}_count` },
    ];
  });
}

/**
 * The series read now into a prom-client registry (a fresh one per read: a family that appears
 * later, such as the health probe's after its first answer, is simply there next time).
 */
export function registryOf(series: LiveSeries): Registry {
  const registry = new Registry();
  for (const f of series.families()) {
    const values = promValues(f);
    registry.registerMetric({
      name: f.name,
      get: async () => ({ name: f.name, help: f.help, type: f.kind, aggregator: 'sum', values }),
    } as unknown as Parameters<Registry['registerMetric']>[0]);
  }
  return registry;
}

/** The `/metrics` body and its content type. */
export async function exposition(series: LiveSeries): Promise<{ contentType: string; body: string }> {
  const registry = registryOf(series);
  return { contentType: registry.contentType, body: await registry.metrics() };
}
