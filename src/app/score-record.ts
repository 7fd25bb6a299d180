/**
 * @module app/score-record
 * Turns the runner's unscored record into the record written to results.jsonl: scores for the
 * answer, or for each model of a multi-model request. The request-level scores of a multi-model
 * record stay null: they belong to no one model (the summarizer passes such a request only when
 * every model passes).
 */
import { computeScores, type Expectations } from '../metrics/score.js';
import type { RequestRecord } from '../records/record.js';
import type { UnscoredRecord } from '../runner/index.js';

export function scoreRecord(record: UnscoredRecord, expectations: Expectations): RequestRecord {
  if (record.models !== null) {
    return { ...record, models: record.models.map((model) => ({ ...model, scores: computeScores(model, expectations) })) };
  }
  return { ...record, scores: computeScores(record, expectations) };
}
