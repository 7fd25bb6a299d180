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

/**
 * Scores a record; without `expectations` (a question the plan does not know) the scores stay null.
 * The record is taken over, not copied: its fields (and its models') are filled in place and the
 * same object is returned, now a RequestRecord. A copy with the five new keys (`{ ...record, judge,
 * … }`) cost 50–90 µs a record: V8 copies the hidden class of a spread's object at each key added
 * to it (docs/benchmarks-log.md, "The record path after a response"). The keys added here come last,
 * in the order the copy put them, so results.jsonl is unchanged; a record of runner/to-record.ts has
 * them already (runner/unscored-record.ts SCORED_FIELDS), and they are set in place.
 * Scoring an already scored record again gives the same record.
 */
export function scoreRecord(record: UnscoredRecord, expectations: Expectations | undefined): RequestRecord {
  const scored = record as unknown as RequestRecord;
  const models = scored.models;
  scored.scores = models !== null || expectations === undefined ? null : computeScores(record, expectations);
  scored.judge = null;
  scored.checks = {};
  scored.reference_answer = expectations?.reference_answer ?? null;
  scored.rubric = expectations?.rubric ?? null;
  scored.human_verdict = expectations?.human_verdict ?? null;
  if (models !== null) {
    for (const model of models) {
      model.scores = expectations === undefined ? null : computeScores(model, expectations);
      model.judge = null;
      model.checks = {};
    }
  }
  return scored;
}
