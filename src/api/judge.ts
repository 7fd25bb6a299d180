/**
 * @module api/judge
 * The judge's side of the contract: the OpenAI-compatible chat completions operation a judge
 * model is asked through (`POST {judge}/v1/chat/completions`, as served by hosted APIs, vLLM,
 * Ollama, llama.cpp), the JSON document chatbench puts in the user message (what the simulator's
 * rule-based judge reads), and the verdict the judge returns. Response schemas keep unknown keys.
 */
import { z } from 'zod';

/** Under the judge's base URL (a base URL that already ends with /v1 is not given it twice). */
export const CHAT_COMPLETIONS_PATH = '/v1/chat/completions';

export const JUDGE_TASKS = ['correctness', 'groundedness', 'relevance', 'rubric'] as const;
export const JudgeTaskSchema = z.enum(JUDGE_TASKS);
export type JudgeTask = z.infer<typeof JudgeTaskSchema>;

/** A document as the judge is shown it: its citation number in the answer (null: not cited), title and text. */
export const JudgeDocumentSchema = z.object({
  number: z.number().int().nullable(),
  title: z.string().nullable(),
  text: z.string(),
});
export type JudgeDocument = z.infer<typeof JudgeDocumentSchema>;

/**
 * The user message of every judge request: one JSON object. The system message (the versioned
 * prompt) says what to do with it. `answer` has its citation links removed; groundedness keeps the
 * markers as `[n]` so that each claim names its documents.
 */
export const JudgeInputSchema = z.object({
  task: JudgeTaskSchema,
  question: z.string(),
  answer: z.string(),
  /** correctness */
  reference_answer: z.string().optional(),
  /** rubric */
  rubric: z.string().optional(),
  /** groundedness: the cited documents (or, when nothing is cited, those the answer was given) */
  documents: z.array(JudgeDocumentSchema).optional(),
  /** relevance: the dataset says the knowledge base holds no answer */
  no_answer_expected: z.boolean().optional(),
});
export type JudgeInput = z.infer<typeof JudgeInputSchema>;

export const ChatMessageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'developer', 'tool']),
  /** Requests carry strings; a server may accept content parts, which chatbench never sends. */
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).nullable(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const ChatCompletionRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(ChatMessageSchema).min(1),
  temperature: z.number().min(0).max(2).optional(),
  response_format: z
    .looseObject({
      type: z.enum(['text', 'json_object', 'json_schema']),
      json_schema: z
        .looseObject({ name: z.string(), schema: z.record(z.string(), z.unknown()), strict: z.boolean().optional() })
        .optional(),
    })
    .optional(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>;

export const ChatCompletionResponseSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({ content: z.string().nullable().optional() }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  model: z.string().optional(),
});
export type ChatCompletionResponse = z.infer<typeof ChatCompletionResponseSchema>;

/** The verdict of a scored figure (correctness, groundedness, relevance). */
export const ScoreVerdictSchema = z.object({ score: z.number().min(0).max(1), reason: z.string() });
/** The verdict of a rubric. */
export const PassVerdictSchema = z.object({ pass: z.boolean(), reason: z.string() });

/** JSON Schemas sent as `response_format.json_schema` to endpoints with structured output. */
export const VERDICT_JSON_SCHEMAS = {
  score: {
    type: 'object',
    properties: { score: { type: 'number', minimum: 0, maximum: 1 }, reason: { type: 'string' } },
    required: ['score', 'reason'],
    additionalProperties: false,
  },
  pass: {
    type: 'object',
    properties: { pass: { type: 'boolean' }, reason: { type: 'string' } },
    required: ['pass', 'reason'],
    additionalProperties: false,
  },
} as const;

/** Which verdict a task answers with. */
export const verdictKindOf = (task: JudgeTask): keyof typeof VERDICT_JSON_SCHEMAS =>
  task === 'rubric' ? 'pass' : 'score';
