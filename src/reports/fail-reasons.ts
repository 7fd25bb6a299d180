/**
 * @module reports/fail-reasons
 * Why a request did not pass, in words: what the JUnit failure message and the markdown "worst
 * questions" say. Derived from the record's outcome and scores only (docs/figures.md, "Answer checks and the pass rule"), so it
 * reads the same in every report and after `chatbench report`.
 */
import { recordPassed } from '../metrics/pass.js';
import type { AnswerFigures, RequestRecord } from '../records/record.js';

type Figures = Pick<AnswerFigures, 'outcome' | 'error_code' | 'error_message' | 'scores'> & { tools_used?: readonly string[] | undefined };

/** "http_error 503 E_BUSY" / "timeout": the outcome with its status and code when they exist. */
export function describeOutcome(figures: Pick<AnswerFigures, 'outcome' | 'error_code'>, httpStatus: number | null): string {
  const parts: string[] = [figures.outcome];
  if (httpStatus !== null && figures.outcome !== 'ok' && httpStatus >= 300) parts.push(String(httpStatus));
  if (figures.error_code) parts.push(figures.error_code);
  return parts.join(' ');
}

/**
 * The reasons one answer did not pass; empty when it passed. A non-ok outcome is the only reason
 * given for a failed request (it has no scores). A pass=false with no recognisable cause still
 * gets "did not pass" so a failure never comes without a message.
 */
export function answerFailReasons(figures: Figures, httpStatus: number | null): string[] {
  if (figures.outcome === 'skipped') return [`skipped: ${figures.error_message ?? 'an earlier turn of the conversation failed'}`];
  if (figures.outcome !== 'ok') return [`outcome ${describeOutcome(figures, httpStatus)}`];
  const scores = figures.scores;
  if (!scores) return [];
  const reasons: string[] = [];
  if (scores.missing_phrases.length > 0) reasons.push(`missing phrases: ${scores.missing_phrases.map((p) => `"${p}"`).join(', ')}`);
  if (scores.forbidden_phrases.length > 0) reasons.push(`forbidden phrases present: ${scores.forbidden_phrases.map((p) => `"${p}"`).join(', ')}`);
  if (scores.unmatched_patterns.length > 0) reasons.push(`no match for ${scores.unmatched_patterns.join(', ')}`);
  if (scores.forbidden_matches.length > 0) reasons.push(`forbidden patterns match: ${scores.forbidden_matches.join(', ')}`);
  if (scores.invalid_citations > 0) reasons.push(`${scores.invalid_citations} invalid citation(s)`);
  if (scores.citation_recall === 0) reasons.push('no expected document cited (citation recall 0)');
  if (scores.no_answer_ok === false) reasons.push('cited documents on a question that expects no answer');
  if (scores.tool_assertion === 0) reasons.push(`an expected tool was not used (used: ${figures.tools_used?.join(', ') || 'none'})`);
  if (scores.failed_conditions.length > 0) {
    // Under a --pass rule its failed conditions are the reasons (the default rule's count only if named).
    const named = scores.failed_conditions.includes('the default rule');
    return scores.pass ? [] : [...(named ? reasons : []), ...scores.failed_conditions.filter((c) => c !== 'the default rule').map((c) => `pass condition ${c}`)];
  }
  if (!scores.pass && reasons.length === 0) reasons.push('did not pass');
  return scores.pass ? [] : reasons;
}

export { recordPassed };

/** Reasons for the whole request: its own, then each model's prefixed with its name; empty when it passed. */
export function recordFailReasons(record: RequestRecord): string[] {
  if (recordPassed(record)) return [];
  const own = answerFailReasons(record, record.http_status);
  if (!record.models) return own.length > 0 ? own : ['did not pass'];
  const perModel = record.models.flatMap((m) =>
    answerFailReasons(m, record.http_status).map((reason) => `[${m.model_name ?? `model ${m.model_index}`}] ${reason}`),
  );
  // A non-ok request names its outcome once; the models' own reasons say which one broke.
  const reasons = [...own, ...perModel.filter((r) => !own.includes(r))];
  return reasons.length > 0 ? reasons : ['did not pass'];
}
