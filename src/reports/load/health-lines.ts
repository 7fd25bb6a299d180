/**
 * @module reports/load/health-lines
 * The health probe's figures as lines of text, the same in the terminal summary, report.md and
 * report.html: probes and failures by status, latency percentiles, and the first failure.
 */
import type { LoadSummary } from '../../records/load-summary.js';
import { formatMs } from '../format.js';

/** Empty without a probe. */
export function healthLines(summary: LoadSummary): string[] {
  const h = summary.health;
  if (h === null) return [];
  const statuses = Object.entries(h.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status === 'no_answer' ? 'no answer' : status} ${n}`)
    .join(', ');
  return [
    `health ${h.path}, every ${formatMs(h.interval_ms)} (measured window): ${h.probes} probes, ${h.failures} failed${statuses === '' ? '' : ` (${statuses})`}`,
    `health latency: p50 ${formatMs(h.health_ms?.p50)} · p95 ${formatMs(h.health_ms?.p95)} · p99 ${formatMs(h.health_ms?.p99)} · max ${formatMs(h.health_ms?.max)}`,
    ...(h.first_failure === null ? [] : [`first failing probe at ${((h.first_failure_ms ?? 0) / 1000).toFixed(1)} s: ${h.first_failure}`]),
  ];
}
