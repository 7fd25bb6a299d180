/**
 * @module records/expectations
 * What a question expects of its answer. Read from the dataset, carried by the plan, scored by the
 * metrics: one schema for all three.
 */
import { z } from 'zod';

export const ExpectationsSchema = z.object({
  expected_document_ids: z.array(z.string()),
  /** Phrases the citation-free answer must contain (case-insensitive, whitespace folded). */
  must_contain: z.array(z.string()),
  must_not_contain: z.array(z.string()),
  /** The corpus has no answer: passes when nothing is cited. */
  expect_no_answer: z.boolean(),
});
export type Expectations = z.infer<typeof ExpectationsSchema>;
