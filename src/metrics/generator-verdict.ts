/**
 * @module metrics/generator-verdict
 * Whether the load generator's own lateness matters, in proportion to what was measured (docs/reference/metrics.md
 * "generator health"). A few sends a few ms late change nothing in latencies of hundreds of ms: 4
 * late sends of 150 with a lag p99 of 7.6 ms against a TTFP p50 of 300 ms is a generator that kept
 * up. It fell behind when it dropped arrivals, or when at least 1% of its sends were late and its
 * lag p99 exceeds both 5 ms and a tenth of the median latency it measured (TTFP, else total): then
 * the figures describe the generator as much as the service.
 */
import type { GeneratorFigures } from '../records/load-summary.js';

/** Sends later than this behind their schedule are late (docs/reference/metrics.md). */
export const LATE_MS = 5;
/** Late sends below this share of the sent ones are noise. */
export const LATE_SHARE = 0.01;
/** A lag p99 under this fraction of the median latency measured cannot move the figures much. */
export const LAG_FRACTION = 0.1;

export interface GeneratorVerdict {
  /** `warning`: the figures describe the generator as much as the service; `note`: some lateness, in proportion harmless. */
  readonly severity: 'ok' | 'note' | 'warning';
  /** One line, for the terminal summary. */
  readonly line: string;
}

type Health = Pick<
  GeneratorFigures,
  'sent' | 'dropped' | 'late_sends' | 'schedule_lag_ms' | 'peak_in_flight' | 'cpu_ms_per_request'
>;

const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

/** `medianMs`: the measured window's TTFP p50 (else total p50) of ok requests; null when none. */
export function generatorVerdict(g: Health, medianMs: number | null): GeneratorVerdict {
  const lagP99 = g.schedule_lag_ms?.p99 ?? null;
  const lateShare = g.sent > 0 ? g.late_sends / g.sent : 0;
  const allowed = Math.max(LATE_MS, medianMs === null ? 0 : medianMs * LAG_FRACTION);
  const lagMatters = lagP99 !== null && lagP99 > allowed && lateShare >= LATE_SHARE;
  const cpu = g.cpu_ms_per_request === null ? '' : `, CPU ${g.cpu_ms_per_request.toFixed(2)} ms a request`;
  const lag = lagP99 === null ? '' : `lag p99 ${ms(lagP99)}`;
  const late = `${g.late_sends} of ${g.sent} sends over ${LATE_MS} ms late`;
  if (g.dropped > 0 || lagMatters) {
    const why = [
      ...(g.dropped > 0 ? [`${g.dropped} arrivals dropped at the in-flight cap`] : []),
      ...(lagMatters
        ? [
            `${late} (${(lateShare * 100).toFixed(1)}%), ${lag}${medianMs === null ? '' : ` against a median latency of ${ms(medianMs)}`}`,
          ]
        : []),
    ];
    return {
      severity: 'warning',
      line: `the load generator fell behind its schedule: ${why.join('; ')}; the figures describe the generator as much as the service`,
    };
  }
  const proportion =
    lagP99 !== null && medianMs !== null && medianMs > 0
      ? ` (${((lagP99 / medianMs) * 100).toFixed(lagP99 / medianMs < 0.01 ? 1 : 0)}% of the median latency)`
      : '';
  const detail = [lag ? `${lag}${proportion}` : '', g.late_sends > 0 ? late : '', `peak ${g.peak_in_flight} in flight`]
    .filter((p) => p !== '')
    .join(', ');
  return { severity: g.late_sends > 0 ? 'note' : 'ok', line: `the load generator kept up: ${detail}${cpu}` };
}
