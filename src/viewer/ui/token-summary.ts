/**
 * @module viewer/ui/token-summary
 * Each column's token figures at a glance (issue 27 §6): output tokens and output tokens per second
 * (medians), TPOT per token (p50) and the ITL (p50 and p99, pooled over the column's gaps between
 * answer deltas), for the overview's block and a question page's pane. Picked from the column's
 * figures, which are the run summary's own (summary.json's group `latency.*` and `answer_gap_ms`,
 * read by compare/run-data groupValue): nothing is recomputed here, so the block, the overview's
 * rows and summary.json cannot disagree.
 */
import { formatCount, formatMs, NA } from '../../reports/format.js';
import type { ViewColumn, ViewData, ViewEstimate } from '../view-data.js';

/** The overview rows (`figure.stat`) each value is read from. */
const SOURCES = {
  output_tokens: 'output_tokens.p50',
  output_tokens_per_s: 'output_tokens_per_s.p50',
  tpot_per_token_ms: 'tpot_per_token_ms.p50',
  itl_p50_ms: 'answer_gap_ms.p50',
  itl_p99_ms: 'answer_gap_ms.p99',
} as const;
type Value = keyof typeof SOURCES;

/** One column's token figures; null where its summary has none (no answer counted, no gap). */
export type TokenSummary = { readonly column: number; readonly label: string } & {
  readonly [K in Value]: number | null;
} & {
  /** The answers the token figures rest on, and the gaps the ITL rests on (the summary's counts). */
  readonly answers: number | null;
  readonly gaps: number | null;
};

/** Per column, in the overview's order; a column with no token figure at all is left out. */
export function tokenSummaries(data: Pick<ViewData, 'figures' | 'columns'>): TokenSummary[] {
  const index = new Map(data.figures.map((f, i) => [f.name, i]));
  const estimate = (column: ViewColumn, name: string): ViewEstimate | null => {
    const i = index.get(name);
    return i === undefined ? null : (column.figures[i] ?? null);
  };
  return data.columns.flatMap((column) => {
    const values = Object.fromEntries(
      Object.entries(SOURCES).map(([key, name]) => [key, estimate(column, name)?.value ?? null]),
    ) as Record<Value, number | null>;
    if (Object.values(values).every((v) => v === null)) return [];
    return [
      {
        column: column.id,
        label: column.label,
        ...values,
        answers: estimate(column, SOURCES.output_tokens)?.n ?? null,
        gaps: estimate(column, SOURCES.itl_p50_ms)?.n ?? null,
      },
    ];
  });
}

/** The block's cells, each in its unit as the reports print it (reports/format); NA where the summary has none. */
export function tokenSummaryCells(s: TokenSummary): Record<Value, string> {
  return {
    output_tokens: formatCount(s.output_tokens),
    output_tokens_per_s: s.output_tokens_per_s === null ? NA : s.output_tokens_per_s.toFixed(1),
    tpot_per_token_ms: formatMs(s.tpot_per_token_ms),
    itl_p50_ms: formatMs(s.itl_p50_ms),
    itl_p99_ms: formatMs(s.itl_p99_ms),
  };
}

/** A pane's line, what exists only: `"set: median 212 tokens, 48.1 tokens/s · TPOT p50 19.6 ms · ITL p50 21.0 ms, p99 44.2 ms"`. */
export function tokenSummaryLine(s: TokenSummary): string {
  const c = tokenSummaryCells(s);
  const parts: string[] = [];
  const medians = [
    ...(s.output_tokens === null ? [] : [`${c.output_tokens} tokens`]),
    ...(s.output_tokens_per_s === null ? [] : [`${c.output_tokens_per_s} tokens/s`]),
  ];
  if (medians.length > 0) parts.push(`median ${medians.join(', ')}`);
  if (s.tpot_per_token_ms !== null) parts.push(`TPOT p50 ${c.tpot_per_token_ms}`);
  if (s.itl_p50_ms !== null)
    parts.push(`ITL p50 ${c.itl_p50_ms}${s.itl_p99_ms === null ? '' : `, p99 ${c.itl_p99_ms}`}`);
  return `set: ${parts.join(' · ')}`;
}
