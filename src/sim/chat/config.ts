/**
 * @module sim/chat/config
 * The chat engine's part of the simulator config (nested as "chat"). Every field has a default, so
 * `ChatConfigSchema.parse({})` is a working configuration.
 */
import { z } from 'zod';
import { FRAMINGS } from '../encode/index.js';
import { ModelProfileOverrideSchema } from '../profiles.js';
import { DEFAULT_TOOLS, ToolsSchema } from './tools.js';

/**
 * The failures the simulator can inject (issue 2 §3), and what a model or a tool does wrong, each
 * written as the configured `onyx_release` writes it (issue 10): `tool_error` (v3.2+ a
 * `{"type": "error"}` packet and the answer goes on; before, the stream ends in a streaming error),
 * `empty_answer` (no answer text: before v3.1 the stream reaches stop with nothing said, then a
 * streaming error whose code depends on the release), `model_refusal` (v4.5+ MODEL_REFUSAL, not
 * retryable; before, an empty answer).
 */
export const FAULT_KINDS = [
  'reset_before_headers',
  'reset_mid_stream',
  'stall_mid_stream',
  'malformed_line',
  'end_without_stop',
  'unterminated_error',
  'http_500',
  'http_503',
  'streaming_error',
  'tool_error',
  'empty_answer',
  'model_refusal',
] as const;
export const FaultKindSchema = z.enum(FAULT_KINDS);
export type FaultKind = z.infer<typeof FaultKindSchema>;

import { REGEX_FORM } from './match.js';

export { triggerMatcher } from './match.js';

/** Forces a fault on every request whose message matches. The first matching trigger wins. */
export const FaultTriggerSchema = z
  .strictObject({
    match: z.string().min(1),
    fault: FaultKindSchema,
    /** For `streaming_error`: the error_code sent (default MODEL_ERROR). */
    error_code: z.string().min(1).optional(),
    /** In multi-model mode, which model fails (streaming_error only; default: one chosen by the seed). */
    model_index: z.number().int().min(0).max(2).optional(),
  })
  .superRefine((trigger, ctx) => {
    const regex = REGEX_FORM.exec(trigger.match);
    if (regex === null) return;
    try {
      new RegExp(regex[1] ?? '', regex[2]);
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        path: ['match'],
        message: `invalid regular expression: ${(error as Error).message}`,
      });
    }
  });
export type FaultTrigger = z.output<typeof FaultTriggerSchema>;

const Probability = z.number().min(0).max(1);

/** A log-normal delay (median, p99; ms before time_scale) that may be 0: { median: 0, p99: 0 } is none. */
const DelaySchema = z
  .strictObject({ median: z.number().nonnegative(), p99: z.number().nonnegative() })
  .refine((d) => d.p99 >= d.median, 'p99 must be at least the median')
  .refine((d) => d.median > 0 || d.p99 === 0, 'a median of 0 means no delay: give p99 0 too');

export const ChatConfigSchema = z
  .strictObject({
    /** `ndjson` as the deployed service sends; `sse` for real `data:` framing. */
    framing: z.enum(FRAMINGS).default('ndjson'),
    /**
     * `onyx`: the packets of the release spoken; `pydantic_ai`: the answer as the next runtime sends it
     * (upstream be8920ec, not released: agent-protocol.ts), to try a client against it.
     */
    packet_protocol: z.enum(['onyx', 'pydantic_ai']).default('onyx'),
    /** Multiplies every simulated delay (1 = real time; tests use e.g. 0.05). */
    time_scale: z.number().positive().default(1),
    /**
     * The service's own handling before its first part (creating the chat session and the message
     * ids): the request's arrival → its first byte, drawn per request. Everything the simulator does
     * for a request (retrieval included) happens inside it, so its own CPU never shows as latency.
     */
    ttfp_ms: DelaySchema.optional(),
    /** The retired name of `ttfp_ms` (docs/glossary.md), still read; `ttfp_ms` wins when both are given. */
    first_part_ms: DelaySchema.optional(),
    /** A `chat_heartbeat` packet after this much silence (real milliseconds; not scaled). */
    heartbeat_ms: z.number().positive().default(15_000),
    /** How long `stall_mid_stream` stops sending (scaled by time_scale). */
    stall_ms: z.number().nonnegative().default(30_000),
    /** Documents retrieved (search_tool_documents_delta and final_documents). */
    top_k: z.number().int().min(1).max(50).default(5),
    /**
     * Relevance threshold: the share (0–1, weighted by rarity) of the question's meaningful words the
     * best document matches. Below it the model answers that it found nothing.
     */
    min_coverage: Probability.default(0.45),
    /**
     * A second threshold, on the raw BM25 score of the best document: below it the question is not
     * covered, whatever its coverage ("What is the capital of France?" matches one finance word).
     * On the shipped corpus covered questions score 57 and up, uncovered ones 17 and under.
     */
    min_score: z.number().nonnegative().default(20),
    /** The first message id handed out; ids then increase by one per message. */
    first_message_id: z.number().int().min(1).default(1),
    /** Profiles by model_version (or provider/model_version), laid over the built-ins. */
    profiles: z.record(z.string(), ModelProfileOverrideSchema).default({}),
    /** The tools (tools.ts): ids, names, kinds and when each is used; replaces the default catalogue when given. */
    tools: ToolsSchema.default(() => DEFAULT_TOOLS.map((tool) => ({ ...tool }))),
    /** Chat sessions (sessions.ts): how many are remembered and how much of each, and how far back a follow-up searches. */
    sessions: z
      .strictObject({
        /** Sessions remembered at most; the least recently used is forgotten first. */
        max_sessions: z.number().int().min(1).default(10_000),
        /** Messages remembered per session at most; the oldest are forgotten first. */
        max_messages: z.number().int().min(2).default(200),
        /** A follow-up's search covers the new message and this many earlier questions of its history. */
        history_turns: z.number().int().min(0).default(2),
      })
      .prefault({}),
    faults: z
      .strictObject({
        rates: z.partialRecord(FaultKindSchema, Probability).default({}),
        triggers: z.array(FaultTriggerSchema).default([]),
      })
      .prefault({}),
  })
  .transform(({ first_part_ms: retired, ttfp_ms: ttfp, ...config }) => ({
    ...config,
    /** The arrival → first part delay: `ttfp_ms`, else the retired `first_part_ms`, else 25 ms median, 100 ms p99. */
    ttfp_ms: ttfp ?? retired ?? { median: 25, p99: 100 },
  }));
export type ChatConfig = z.output<typeof ChatConfigSchema>;
export type ChatConfigInput = z.input<typeof ChatConfigSchema>;

/** Whether a client may retry after this mid-stream error (transient provider or network trouble), as the service says. */
export function isRetryable(code: string): boolean {
  return [
    'RATE_LIMIT',
    'SERVICE_UNAVAILABLE',
    'CONNECTION_ERROR',
    'MODEL_ERROR',
    'EMPTY_LLM_RESPONSE',
    'UNKNOWN_ERROR',
    'API_ERROR',
    'STREAM_WRITER_ERROR',
    'TOOL_CALL_FAILED',
    'INIT_FAILED',
  ].includes(code);
}
