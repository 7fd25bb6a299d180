/**
 * @module app/shared/score-record
 * Turns the runner's unscored record into the record written to results.jsonl: scores for the
 * answer, or for each model of a multi-model request, and the question's reference fields. The
 * request-level scores of a multi-model record stay null: they belong to no one model (the
 * summarizer passes such a request only when every model passes). No judge and no check runs
 * here (judge/, checks/ and assess-record do that): their fields start empty.
 */
import { computeScores } from '../../metrics/score.js';
import type { ExpectationsInput as Expectations } from '../../records/expectations.js';
import type { RequestRecord } from '../../records/record.js';
import type { UnscoredRecord } from '../../runner/index.js';

/** Scores a record; without `expectations` (a question the plan does not know) the scores stay null. */
export function scoreRecord(record: UnscoredRecord, expectations: Expectations | undefined): RequestRecord {
  const score = <F extends Parameters<typeof computeScores>[0]>(figures: F) =>
    expectations === undefined ? null : computeScores(figures, expectations);
  const models = record.models?.map((model) => ({ ...model, scores: score(model), judge: null, checks: {} })) ?? null;
  return {
    ...record,
    scores: record.models !== null ? null : score(record),
    judge: null,
    checks: {},
    reference_answer: expectations?.reference_answer ?? null,
    rubric: expectations?.rubric ?? null,
    human_verdict: expectations?.human_verdict ?? null,
    models,
  };
}
