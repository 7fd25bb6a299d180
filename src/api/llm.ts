/**
 * @module api/llm
 * The LLM's side of the service: the OpenAI-compatible chat completions operation the deployed
 * service calls (through litellm) when its provider is `openai_compatible`, as far as the mock
 * LLM (`chatbench mock-llm`, src/sim/llm/) reads and answers it. Requests keep unknown keys and
 * every field but the model is optional: litellm sends provider extras (`stream_options`, `user`)
 * and a mock must never refuse a request the real API would take.
 */
import { z } from 'zod';

/** Under the mock's root; `GET /v1/models` lists what it serves. */
export const LLM_CHAT_PATH = '/v1/chat/completions';
export const LLM_MODELS_PATH = '/v1/models';

export const LlmToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function').default('function'),
  function: z.looseObject({ name: z.string(), arguments: z.string().default('{}') }),
});
export type LlmToolCall = z.infer<typeof LlmToolCallSchema>;

export const LlmMessageSchema = z.looseObject({
  role: z.string(),
  /** A string, or content parts (multimodal); null on an assistant message that only calls tools. */
  content: z.union([z.string(), z.array(z.unknown())]).nullish(),
  tool_calls: z.array(LlmToolCallSchema).nullish(),
  tool_call_id: z.string().nullish(),
});
export type LlmMessage = z.infer<typeof LlmMessageSchema>;

export const LlmToolSchema = z.looseObject({
  type: z.string().default('function'),
  function: z.looseObject({
    name: z.string(),
    description: z.string().nullish(),
    /** A JSON Schema object (`properties`, `required`). */
    parameters: z.record(z.string(), z.unknown()).default({}),
  }),
});
export type LlmTool = z.infer<typeof LlmToolSchema>;

/** `"auto" | "none" | "required"`, or one named function the model must call. */
export const LlmToolChoiceSchema = z.union([
  z.string(),
  z.looseObject({ type: z.string().optional(), function: z.looseObject({ name: z.string().optional() }).optional() }),
]);
export type LlmToolChoice = z.infer<typeof LlmToolChoiceSchema>;

export const LlmRequestSchema = z.looseObject({
  model: z.string().default('mock-model'),
  stream: z.boolean().nullish(),
  messages: z.array(LlmMessageSchema).default([]),
  tools: z.array(LlmToolSchema).nullish(),
  tool_choice: LlmToolChoiceSchema.nullish(),
  max_tokens: z.number().int().nullish(),
  max_completion_tokens: z.number().int().nullish(),
});
export type LlmRequest = z.infer<typeof LlmRequestSchema>;

/** The whole answer (`stream` false): `chat.completion`. */
export interface LlmCompletion {
  readonly id: string;
  readonly object: 'chat.completion';
  readonly created: number;
  readonly model: string;
  readonly choices: ReadonlyArray<{
    index: number;
    message: { role: 'assistant'; content: string | null; tool_calls?: LlmToolCall[] };
    finish_reason: 'stop' | 'tool_calls' | 'length';
  }>;
  readonly usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** One tool call's piece in a streamed delta: the first names it, the next carry its arguments. */
export interface LlmToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments?: string };
}

/** One SSE event of a streamed answer (`stream` true): `chat.completion.chunk`; unset delta fields are left out. */
export interface LlmChunk {
  readonly id: string;
  readonly object: 'chat.completion.chunk';
  readonly created: number;
  readonly model: string;
  readonly choices: ReadonlyArray<{
    index: number;
    delta: { role?: 'assistant'; content?: string; tool_calls?: LlmToolCallDelta[] };
    finish_reason: 'stop' | 'tool_calls' | 'length' | null;
  }>;
}
