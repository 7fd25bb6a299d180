/**
 * @module plan/planned-request
 * One request of an evaluation plan: which question, under which set and mode, which repeat, and the
 * exact body to send. Data only, computed before the first request (style.md rule 2); the runner sends
 * `body` as it is and copies the identifying fields into the record.
 */
import { z } from 'zod';
import { SendMessageRequestSchema } from '../api/send-message.js';
import { ExpectationsSchema } from '../records/expectations.js';
import { ModeSchema } from '../records/record.js';

const DocumentIds = z.array(z.string());


export const PlannedRequestSchema = z.object({
  /** Position in the plan, from 0: the order requests are handed to the scheduler. */
  index: z.number().int().nonnegative(),
  /** `requestKey(question_id, set, mode, repeat)` from src/records: unique in a plan. */
  key: z.string(),
  question_id: z.string(),
  question: z.string(),
  category: z.string().nullable(),
  /** Extra dataset columns, kept as they were. */
  metadata: z.record(z.string(), z.string()),
  expected_document_ids: DocumentIds,
  set: z.string(),
  mode: ModeSchema,
  /** From 0. */
  repeat: z.number().int().nonnegative(),
  /**
   * Multi-model sets: one display name per llm_overrides entry (`display_name ?? model_version ??
   * "model i"`); null for a single model. Used when the stream's ids part names no model.
   */
  model_names: z.array(z.string()).nullable(),
  /** The request body, `stream` already set from `mode`. */
  body: SendMessageRequestSchema,
  /** What scoring needs later; passed through the run untouched. */
  expectations: ExpectationsSchema,
});
/** Input type: `body` may leave out what the service defaults (the client sends it as written). */
export type PlannedRequest = z.input<typeof PlannedRequestSchema>;
