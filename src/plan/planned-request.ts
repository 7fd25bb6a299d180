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

/**
 * Where a request stands in its conversation. Turn 1 creates the chat session (its body carries
 * `chat_session_info`); every later turn `follows` the request at that plan index: the runner sends
 * it only after that one ended `ok`, in the same session, with `parent_message_id` the answer of
 * model `continue_with` (plan/conversation.ts builds its body). Data only: the plan says what
 * depends on what, the runner follows it.
 */
export const ConversationStepSchema = z.object({
  /** The dataset's conversation id. */
  id: z.string(),
  /** 1, 2, … */
  turn: z.number().int().positive(),
  /** How many turns the conversation has. */
  turns: z.number().int().positive(),
  /** Plan index of the previous turn; null for turn 1. */
  follows: z.number().int().nonnegative().nullable(),
  /** Multi-model sets: the model whose answer the next turn continues from (default 0). */
  continue_with: z.number().int().nonnegative(),
});
export type ConversationStep = z.infer<typeof ConversationStepSchema>;

export const PlannedRequestSchema = z.object({
  /** Position in the plan, from 0: the order requests are handed to the scheduler. */
  index: z.number().int().nonnegative(),
  /**
   * The unit of scheduling and of sharding: a conversation (under one set, mode and repeat) whose
   * turns run in order, one at a time, and always in one shard; a question on its own is its own
   * unit. Absent: the request's own index.
   */
  unit: z.number().int().nonnegative().optional(),
  /** The request's turn of a conversation; null or absent for a question asked on its own. */
  conversation: ConversationStepSchema.nullable().optional(),
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
