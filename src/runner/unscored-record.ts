/**
 * @module runner/unscored-record
 * What the runner hands over per request: a RequestRecord whose scores are all still null, without
 * the answer-quality fields (verdicts, checks, the question's reference). The app computes them
 * (src/metrics, src/judge) and writes the line; nothing here knows about scoring.
 */
import { z } from 'zod';
import { UnscoredModelFiguresSchema } from '../client/exchange.js';
import { RequestRecordSchema } from '../records/record.js';

export const UnscoredRecordSchema = RequestRecordSchema.extend({
  scores: z.null(),
  models: z.array(UnscoredModelFiguresSchema).nullable(),
}).omit({ judge: true, checks: true, reference_answer: true, rubric: true, human_verdict: true });
export type UnscoredRecord = z.infer<typeof UnscoredRecordSchema>;

/**
 * The fields scoring adds (app/shared/score-record.ts), in the order a record has them: its last.
 * toRecord's record has these keys already, undefined (so absent from any JSON of it), so that
 * scoring sets them rather than adds them: adding five keys to a record copied from a template
 * built a new hidden class at each, ~10 KB a record (docs/benchmarks-log.md, "Session 40").
 */
export const SCORED_FIELDS = ['judge', 'checks', 'reference_answer', 'rubric', 'human_verdict'] as const;
