/**
 * @module viewer/answer-figures
 * The token figures and the ITL of one answer, for the viewer's question page: output tokens,
 * tokens per second and TPOT per token as the reports count them (figures/catalogue reads them
 * from a record the tokens/ layer counted), and the answer's own ITL p50/p95 from its gaps between
 * answer deltas (`answer_gaps_ms`). A group's ITL pools every gap of its ok answers
 * (summary.json `answer_gap_ms`); one answer's percentiles are exact over its own gaps
 * (metrics/stats, the rule of every per-request statistic). Computed where the record is read,
 * since viewer.html keeps records without their gaps.
 */
import { sampleValue } from '../figures/catalogue.js';
import { latencyStats } from '../metrics/stats.js';
import type { AnswerFigures, RequestRecord } from '../records/record.js';
import type { ViewAnswerFigures } from './view-data.js';

/** One answer's figures; null where it has none (a cut answer has no token count, a full one no gaps). */
export function answerFigures(figures: AnswerFigures, headersMs: number | null): ViewAnswerFigures {
  const gaps = latencyStats(figures.answer_gaps_ms);
  return {
    output_tokens: sampleValue('output_tokens', figures, headersMs),
    output_tokens_per_s: sampleValue('output_tokens_per_s', figures, headersMs),
    tpot_per_token_ms: sampleValue('tpot_per_token_ms', figures, headersMs),
    itl_p50_ms: gaps?.p50 ?? null,
    itl_p95_ms: gaps?.p95 ?? null,
    itl_gaps: gaps?.count ?? 0,
  };
}

/** Every answer of a (token-counted) record, in the question page's pane order: models[] in order, else the record. */
export function recordAnswerFigures(record: RequestRecord): ViewAnswerFigures[] {
  return (record.models ?? [record]).map((answer) => answerFigures(answer, record.headers_ms));
}
