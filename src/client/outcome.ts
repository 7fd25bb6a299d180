/**
 * @module client/outcome
 * Which outcome wins when several apply to one request (client-runner brief): the caller's cancel, our
 * timeout and a broken connection explain everything after them, so they rank first; a status-decided
 * outcome (429, other ≥ 300) comes next; then what the body said: a streaming error, an undecodable
 * part, a stream without its end, and last an answer that ended properly but said nothing
 * (`empty_answer`: it reached stop, so only ok ranks below it). `skipped` never meets another: it is
 * the outcome of a conversation turn that was not sent (its earlier turn failed), and ranks first.
 */
import type { Outcome } from '../records/record.js';

/** Worst first. `ok` is last: it holds only when nothing else applies. */
export const OUTCOME_PRECEDENCE = [
  'skipped',
  'abandoned',
  'cancelled',
  'timeout',
  'network',
  'rate_limited',
  'http_error',
  'stream_error',
  'invalid_response',
  'truncated',
  'empty_answer',
  'ok',
] as const satisfies readonly Outcome[];

const RANK: ReadonlyMap<Outcome, number> = new Map(OUTCOME_PRECEDENCE.map((outcome, i) => [outcome, i]));

/** The outcome that takes precedence of the two (the earlier in OUTCOME_PRECEDENCE). */
export function worseOutcome(a: Outcome, b: Outcome): Outcome {
  return (RANK.get(a) ?? 0) <= (RANK.get(b) ?? 0) ? a : b;
}

/** The worst of several outcomes; `ok` for none (nothing went wrong). */
export function worstOutcome(outcomes: Iterable<Outcome>): Outcome {
  let worst: Outcome = 'ok';
  for (const outcome of outcomes) worst = worseOutcome(worst, outcome);
  return worst;
}
