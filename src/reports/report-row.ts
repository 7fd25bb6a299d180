/**
 * @module reports/report-row
 * The slim row of one request (or of one model of a multi-model request) that the report's
 * builders fold in (report-input, junit-cases, distributions, pass-grid-data), apart from the
 * builder that makes the rows so that they all import it downward.
 */
import { z } from 'zod';
import { RequestRecordSchema } from '../records/record.js';

/**
 * One request, or one model of a multi-model request (`model_index` set), without its answer.
 * A multi-model request has one row with `model_index: null` for the request as a whole, plus one
 * per model; renderers pick the rows that match their column.
 */
export const ReportRowSchema = RequestRecordSchema.pick({
  key: true,
  question_id: true,
  question: true,
  category: true,
  set: true,
  mode: true,
  repeat: true,
  outcome: true,
  http_status: true,
  error_code: true,
  ttfp_ms: true,
  ttft_ms: true,
  total_ms: true,
  time_per_delta_ms: true,
  output_chars_per_s: true,
}).extend({
  model_index: z.number().int().nullable(),
  model_name: z.string().nullable(),
  pass: z.boolean(),
  /** The pass tested something the question expects (metrics/pass recordChecked); a pass that did not is "not checked". */
  checked: z.boolean(),
  citation_recall: z.number().nullable(),
  citation_precision: z.number().nullable(),
  citation_f1: z.number().nullable(),
  /** Why it did not pass (fail-reasons.ts); empty when it passed. */
  reasons: z.array(z.string()),
});
export type ReportRow = z.infer<typeof ReportRowSchema>;
