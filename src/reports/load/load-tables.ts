/**
 * @module reports/load/load-tables
 * The tables of a load report as plain text cells, shared by report.md and report.html so both
 * always show the same figures the same way (reports/format: "–" for a figure that does not exist).
 */
import type { GateVerdict } from '../../figures/gate-verdict.js';
import type { LoadFigures } from '../../metrics/load.js';
import type { LoadSummary, ShareRow, WindowFigures } from '../../records/load-summary.js';
import type { LatencyStats } from '../../records/summary.js';
import { NA, formatCount, formatMs, formatPct } from '../format.js';
import { formatFigureValue } from '../../figures/units.js';

/** What a load report renders: the summary, the CDF samples, and where it came from. */
export interface LoadReportInput {
  readonly summary: LoadSummary;
  readonly samples: LoadFigures['samples'];
  readonly meta: { readonly title: string; readonly generated_by: string; readonly run_dir: string | null };
  /** `--gate` results, when the run had gates. */
  readonly gates?: readonly GateVerdict[];
}

export interface TextTable {
  readonly header: readonly string[];
  readonly rows: ReadonlyArray<readonly string[]>;
}

/** Requests per second with one decimal ("12.5/s"). */
export const formatRate = (v: number | null | undefined): string => (v === null || v === undefined || !Number.isFinite(v) ? NA : `${v.toFixed(1)}/s`);

/** The load model in a few words: "open, constant 50/s", "closed, 8 users", "open, stages 30s:10 → 60s:50". */
export function describeModel(run: LoadSummary['run']): string {
  const unit = run.model === 'open' ? '/s' : ' users';
  const what = run.stages !== null && run.stages.length > 0
    ? `stages ${run.stages.map((s) => `${s.duration_ms / 1000}s:${s.target}`).join(' → ')}`
    : `${run.target ?? NA}${unit}`;
  return `${run.model}${run.arrival ? `, ${run.arrival}` : ''}, ${what}`;
}

/** The headline figures of the measured window, one string each. */
export function headline(s: LoadSummary): string[] {
  const m = s.windows.measured;
  return [
    `offered ${formatRate(m.rates.offered)}`,
    `sent ${formatRate(m.rates.sent)}`,
    `accepted ${formatRate(m.rates.ok)}`,
    `429 ${formatRate(m.rates.rate_limited)}`,
    `errors ${formatRate(m.rates.errors)}`,
    `goodput ${formatRate(m.rates.goodput)}`,
    `TTFT p95 ${formatMs(m.latency.ttft_ms?.p95)}`,
    `TTFP p95 ${formatMs(m.latency.ttfp_ms?.p95)}`,
    `response p95 ${formatMs(m.latency.response_ms?.p95)}`,
  ];
}

/** Warm-up, measured and cool-down side by side. */
export function windowsTable(s: LoadSummary): TextTable {
  const ws: WindowFigures[] = [s.windows.warmup, s.windows.measured, s.windows.cooldown];
  const row = (label: string, cell: (w: WindowFigures) => string) => [label, ...ws.map(cell)];
  return {
    header: ['', 'warm-up', 'measured', 'cool-down'],
    rows: [
      row('window (s)', (w) => `${(w.start_ms / 1000).toFixed(1)}–${(w.end_ms / 1000).toFixed(1)}`),
      row('offered', (w) => `${formatCount(w.offered)} · ${formatRate(w.rates.offered)}`),
      row('sent', (w) => `${formatCount(w.sent)} · ${formatRate(w.rates.sent)}`),
      row('dropped', (w) => formatCount(w.dropped)),
      row('completed', (w) => formatRate(w.rates.completed)),
      row('accepted (ok)', (w) => `${formatCount(w.outcomes.ok)} · ${formatRate(w.rates.ok)}`),
      row('rate-limited (429)', (w) => `${formatCount(w.outcomes.rate_limited)} · ${formatRate(w.rates.rate_limited)}`),
      row('errors', (w) => formatRate(w.rates.errors)),
      // Users who left on purpose (--abandon): apart from errors, shown only when there were any.
      ...(ws.some((w) => (w.outcomes.abandoned ?? 0) > 0) ? [row('abandoned (--abandon)', (w) => formatCount(w.outcomes.abandoned ?? 0))] : []),
      row('goodput', (w) => `${formatCount(w.good)} · ${formatRate(w.rates.goodput)}`),
      row('ok rate', (w) => formatPct(w.shares.ok_rate)),
      row('error rate', (w) => formatPct(w.shares.error_rate)),
      row('429 rate', (w) => formatPct(w.shares.rate_limited_rate)),
      row('pass rate', (w) => formatPct(w.shares.pass_rate)),
      // Token figures (docs/reference/metrics.md "Tokens"): only when some window's answers were counted.
      ...(ws.some((w) => w.tokens !== null)
        ? [
          row('TPOT per token p50', (w) => formatMs(w.tokens?.tpot_per_token_ms?.p50)),
          row('TPOT per token p95', (w) => formatMs(w.tokens?.tpot_per_token_ms?.p95)),
          row('output tokens/s', (w) => (w.tokens?.output_throughput_tokens_per_s == null ? formatMs(null) : formatFigureValue('output_tokens_per_s', w.tokens.output_throughput_tokens_per_s))),
        ]
        : []),
    ],
  };
}

const LATENCY_ROWS: ReadonlyArray<[keyof WindowFigures['latency'], string]> = [
  ['headers_ms', 'headers (from sent)'],
  ['ttft_ms', 'TTFT (from sent)'],
  ['ttfp_ms', 'TTFP (from sent)'],
  ['total_ms', 'total: service time (from sent)'],
  ['response_ms', 'response time (from scheduled)'],
  ['queue_ms', 'queue: sent − scheduled (all sent)'],
  ['answer_gap_ms', 'ITL: gaps between answer deltas (pooled)'],
];

/** Latency statistics of the measured window. */
export function latencyTable(s: LoadSummary): TextTable {
  const cells = (l: LatencyStats | null) =>
    l === null ? [NA, NA, NA, NA, NA, NA, NA] : [formatCount(l.count), formatMs(l.mean), formatMs(l.p50), formatMs(l.p90), formatMs(l.p95), formatMs(l.p99), formatMs(l.max)];
  return {
    header: ['', 'n', 'mean', 'p50', 'p90', 'p95', 'p99', 'max'],
    rows: LATENCY_ROWS.map(([key, label]) => [label, ...cells(s.windows.measured.latency[key])]),
  };
}

/**
 * `load --conversations`: the measured window by turn number, TTFT by depth: what a conversation's
 * growing history costs. Empty (no rows) without conversations.
 */
export function turnsTable(s: LoadSummary): TextTable {
  return {
    header: ['turn', 'sent', 'ok', 'skipped', 'TTFT p50', 'TTFT p95', 'total p50', 'response p50', 'response p95'],
    rows: Object.entries(s.by_turn).map(([turn, w]) => [
      turn, formatCount(w.sent), formatCount(w.outcomes.ok), formatCount(w.outcomes.skipped ?? 0), formatMs(w.latency.ttft_ms?.p50), formatMs(w.latency.ttft_ms?.p95),
      formatMs(w.latency.total_ms?.p50), formatMs(w.latency.response_ms?.p50), formatMs(w.latency.response_ms?.p95),
    ]),
  };
}

/** Says how a later turn's response time counts, under the turns table. */
export const TURNS_NOTE = 'A later turn is scheduled at its predecessor\'s end plus the think time; its response time counts from then, so a slow turn delays the next as it would a person\'s. A skipped turn was not sent: an earlier turn failed, or the schedule ended first.';

/** The generator's own health. */
export function generatorTable(s: LoadSummary): TextTable {
  const g = s.generator;
  return {
    header: ['', ''],
    rows: [
      ['planned arrivals', formatCount(g.planned_arrivals)],
      ['sent', formatCount(g.sent)],
      ['dropped (in-flight cap)', formatCount(g.dropped)],
      ['late sends (> 5 ms)', formatCount(g.late_sends)],
      ['schedule lag p50 / p99 / max', g.schedule_lag_ms === null ? NA : `${formatMs(g.schedule_lag_ms.p50)} / ${formatMs(g.schedule_lag_ms.p99)} / ${formatMs(g.schedule_lag_ms.max)}`],
      ['peak in flight', formatCount(g.peak_in_flight)],
      ['CPU per request', g.cpu_ms_per_request === null ? NA : `${g.cpu_ms_per_request.toFixed(3)} ms`],
      ['start delay', formatMs(g.start_delay_ms)],
      ['event-loop delay p99 / max (timing uncertainty)', g.loop_delay_ms === null ? NA : `${formatMs(g.loop_delay_ms.p99)} / ${formatMs(g.loop_delay_ms.max)}`],
      ['source', g.from_generator ? 'generator.json' : 'estimated from the records (no generator.json)'],
    ],
  };
}

const shareTable = (first: string, rows: readonly ShareRow[]): TextTable => ({
  header: [first, 'requests', '429s', 'share of 429s', '429 rate'],
  rows: rows.map((r) => [r.key, formatCount(r.requests), formatCount(r.rate_limited), formatPct(r.share_of_429s), formatPct(r.rate_limited_rate)]),
});

/** 429s per token and per scope. */
export const tokenTable = (s: LoadSummary): TextTable => shareTable('token', s.rate_limits.by_token);
export const scopeTable = (s: LoadSummary): TextTable => shareTable('scope', s.rate_limits.by_scope);

/** Rate-limit and retry lines. */
export function rateLimitLines(s: LoadSummary): string[] {
  const r = s.rate_limits;
  const ra = r.retry_after_s;
  const t = s.retries;
  return [
    r.first_429_ms === null
      ? 'Time to the first 429: no request was rate-limited.'
      : `Time to the first 429: ${(r.first_429_ms / 1000).toFixed(2)} s after the start (${formatCount(r.ok_before_first_429)} requests accepted before it).`,
    `429s: ${formatCount(r.rate_limited)} requests, ${formatCount(r.rate_limited_attempts)} attempts; Retry-After ${ra === null ? NA : `p50 ${ra.p50} s, max ${ra.max} s`}.`,
    `Retries: ${formatCount(t.retried_requests)} requests retried (${formatCount(t.retry_attempts)} extra attempts); first attempts: ${outcomeList(t.first_attempts)}; retried requests ended: ${outcomeList(t.after_retry)}.`,
  ];
}

const outcomeList = (counts: Record<string, number>) => Object.entries(counts).filter(([, n]) => n > 0).map(([o, n]) => `${o} ${n}`).join(', ') || 'none';

/** One line per SLO and gate: met/broken with its figure. */
export function objectiveLines(input: LoadReportInput): string[] {
  return [
    // Each reason already says met/broken or passed/failed; a capital prefix marks only the failures.
    ...input.summary.slos.map((s) => (s.passed ? s.reason : `BROKEN: ${s.reason}`)),
    ...(input.gates ?? []).map((g) => (g.passed ? g.reason : `FAILED: ${g.reason}`)),
  ];
}
