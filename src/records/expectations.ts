/**
 * @module records/expectations
 * What a question expects of its answer. Read from the dataset, carried by the plan, scored by the
 * metrics: one schema for all three. The answer-quality fields are optional so that a plan written
 * before them still reads; absent means none.
 */
import { z } from 'zod';
import { LabelVerdictSchema } from './quality.js';

export const ExpectationsSchema = z.object({
  expected_document_ids: z.array(z.string()),
  /** Phrases the citation-free answer must contain (case-insensitive, whitespace folded). */
  must_contain: z.array(z.string()),
  must_not_contain: z.array(z.string()),
  /** The corpus has no answer: passes when nothing is cited. */
  expect_no_answer: z.boolean(),
  /** Regular expressions (`/source/flags`, checked when the dataset is read) the citation-free answer must match. */
  must_match: z.array(z.string()).optional(),
  must_not_match: z.array(z.string()).optional(),
  /** A correct answer in words: answer_f1, rouge_l and the judge's correctness compare with it. */
  reference_answer: z.string().nullable().optional(),
  /** A criterion in words the judge checks (pass/fail). */
  rubric: z.string().nullable().optional(),
  /** A human's verdict on this question's answers, for the judge's agreement. */
  human_verdict: LabelVerdictSchema.nullable().optional(),
  /** Tools the answer must use (names, records/tools.ts); [] asks nothing of the tools. */
  expected_tools: z.array(z.string()).default([]),
});
export type Expectations = z.infer<typeof ExpectationsSchema>;
/** Expectations as a plan or an older file carries them (`expected_tools` may be absent). */
export type ExpectationsInput = z.input<typeof ExpectationsSchema>;
