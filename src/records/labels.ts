/**
 * @module records/labels
 * Human verdicts on answers, for the judge's agreement (docs/reference/metrics.md "Answer quality"): from the
 * dataset's `human_verdict` column (per question), or a labels file (per question, optionally per
 * set and per judged figure), kept in the run directory as labels.jsonl so that `chatbench report`
 * rebuilds the agreement table from the run directory alone.
 */
import { z } from 'zod';
import { LabelVerdictSchema, JudgeFigureSchema } from './quality.js';

export const LabelSchema = z.strictObject({
  question_id: z.string().min(1),
  /** null: every set's answer to the question (every model's, for a multi-model set). */
  set: z.string().min(1).nullable().default(null),
  /** null: the verdict is on the answer as a whole, compared with every judged figure. */
  figure: JudgeFigureSchema.nullable().default(null),
  verdict: LabelVerdictSchema,
  /** Where the label came from (a file:line, a reviewer), for messages; not compared. */
  source: z.string().nullable().default(null),
});
export type Label = z.infer<typeof LabelSchema>;
export type LabelInput = z.input<typeof LabelSchema>;

/** The file name of a run's labels. */
export const LABELS_FILE = 'labels.jsonl';
