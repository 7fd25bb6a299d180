/**
 * @module tokens/figures
 * The token figures of one answer, from its text's token count and its timings (docs/reference/metrics.md
 * "Tokens"). Pure: the count comes in (tokens/encodings.ts counts it, after the run, never on the
 * request's path). Definitions, as the two tools LLM engineers read define them:
 *
 * - `output_tokens`: the answer text's tokens under the set's encoding; null when the text was cut
 *   (`answer_truncated`: a count of its start would be a wrong number) or absent.
 * - `output_tokens_per_s`: output_tokens / total_ms, per request — GuideLLM's per-request
 *   `output_tokens_per_second` (output tokens over the request's latency, start to end).
 * - `tpot_per_token_ms`: (total_ms − ttft_ms) / (output_tokens − 1) — `vllm bench serve`'s TPOT
 *   ("time per output token, excluding the first"); GuideLLM calls the same quotient, with its last
 *   token instead of the end of the body, `inter_token_latency_ms`. null under two tokens.
 *
 * The run-window throughput (total output tokens / the run's duration, vLLM's "Output token
 * throughput") is metrics/summarize's; ITL is the pooled gaps between answer deltas (`answer_gap_ms`).
 */
import type { AnswerFigures } from '../records/record.js';

/** The token figures of AnswerFigures. */
export type TokenFigures = Pick<AnswerFigures, 'output_tokens' | 'output_tokens_per_s' | 'tpot_per_token_ms'>;

export const NO_TOKEN_FIGURES: TokenFigures = {
  output_tokens: null,
  output_tokens_per_s: null,
  tpot_per_token_ms: null,
};

/** Rounded like the record's other figures: 0.01 ms, 0.01 tokens/s. */
const round2 = (value: number): number => Math.round(value * 100) / 100;

/** One answer's token figures, `count` counting its text (the set's encoding). */
export function tokenFigures(
  answer: Pick<AnswerFigures, 'answer' | 'answer_truncated' | 'ttft_ms' | 'total_ms'>,
  count: (text: string) => number,
): TokenFigures {
  if (answer.answer === null || answer.answer_truncated) return NO_TOKEN_FIGURES;
  const tokens = count(answer.answer);
  const total = answer.total_ms;
  const ttft = answer.ttft_ms;
  return {
    output_tokens: tokens,
    output_tokens_per_s: total !== null && total > 0 ? round2((tokens * 1000) / total) : null,
    tpot_per_token_ms:
      total !== null && ttft !== null && tokens >= 2 && total >= ttft ? round2((total - ttft) / (tokens - 1)) : null,
  };
}
