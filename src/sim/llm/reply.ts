/**
 * @module sim/llm/reply
 * What the mock LLM answers one request with, as data: an error, tool calls, or text; then that
 * reply as a whole `chat.completion` or as the timed `chat.completion.chunk` events of a stream.
 * Pure: the server (server.ts) supplies the ids and the clock and does the waiting.
 *
 * Text is filler words, one token each, except in the service's query-rephrase flow, whose output
 * feeds retrieval: there the mock echoes the question's tail, so that searches find what the
 * question asks (as the kit's mock does).
 */
import type { LlmChunk, LlmCompletion, LlmRequest, LlmToolCall } from '../../api/llm.js';
import type { LlmKnobs } from './knobs.js';
import { contentText, decideTools, lastUserText, synthesizeArguments } from './tool-choice.js';

export type Reply =
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly body: { error: { message: string; type: string; param: string | null; code: string | null } };
    }
  | { readonly kind: 'tools'; readonly calls: readonly LlmToolCall[]; readonly promptTokens: number }
  | { readonly kind: 'text'; readonly words: readonly string[]; readonly promptTokens: number };

const FILLER =
  'This is deterministic mock answer content used only for load testing the Onyx application and infrastructure under controlled conditions.'.split(
    ' ',
  );

/** The stable phrase of the service's query-rephrase system prompts (backend/onyx/prompts/search_prompts.py). */
const ECHO_MARKERS = ['reformulates the last user message'];

/** About four characters a token, plus a little per message: only to decide a context-window overflow and to fill `usage`. */
export function estimatePromptTokens(request: LlmRequest): number {
  const chars = request.messages.reduce((sum, m) => sum + (contentText(m) ?? '').length + 4, 0);
  return Math.floor(chars / 4);
}

/** Decides the reply to `request`; `callId(i)` names the i-th tool call of this reply. */
export function planReply(request: LlmRequest, knobs: LlmKnobs, callId: (i: number) => string): Reply {
  const promptTokens = estimatePromptTokens(request);
  if (knobs.maxContextTokens > 0 && promptTokens > knobs.maxContextTokens) {
    const message = `This model's maximum context length is ${knobs.maxContextTokens} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`;
    return {
      kind: 'error',
      status: 400,
      body: { error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } },
    };
  }
  const decision = decideTools(request, knobs);
  if (decision.kind === 'refuse')
    return {
      kind: 'error',
      status: 400,
      body: { error: { message: decision.message, type: 'invalid_request_error', param: 'tool_choice', code: null } },
    };
  if (decision.calls.length > 0) {
    const calls = decision.calls.map((c, i): LlmToolCall => ({
      id: callId(i),
      type: 'function',
      function: { name: c.tool.function.name, arguments: synthesizeArguments(c.tool, c.task) },
    }));
    return { kind: 'tools', calls, promptTokens };
  }
  const echo = request.messages.some(
    (m) =>
      m.role === 'system' &&
      typeof m.content === 'string' &&
      ECHO_MARKERS.some((marker) => m.content!.includes(marker)),
  );
  if (echo)
    return {
      kind: 'text',
      words: lastUserText(request.messages)
        .slice(-300)
        .split(/\s+/)
        .filter((w) => w !== ''),
      promptTokens,
    };
  const cap = request.max_tokens ?? request.max_completion_tokens ?? null;
  const count = cap === null || cap <= 0 ? knobs.tokens : Math.min(knobs.tokens, Math.max(1, cap));
  return { kind: 'text', words: Array.from({ length: count }, (_, i) => FILLER[i % FILLER.length]!), promptTokens };
}

/** What every answer of one request carries. */
export interface ReplyMeta {
  readonly id: string;
  readonly model: string;
  /** Unix seconds. */
  readonly created: number;
}

/** A tool-calling turn is billed a fixed 20 tokens, as by the kit's mock. */
const TOOL_CALL_TOKENS = 20;

/** How long the whole answer takes when not streamed: the first token's wait plus, for text, every inter-token wait. */
export const completionDelayMs = (reply: Exclude<Reply, { kind: 'error' }>, knobs: LlmKnobs): number =>
  knobs.ttftMs + (reply.kind === 'text' ? knobs.itlMs * reply.words.length : 0);

export function completionOf(reply: Exclude<Reply, { kind: 'error' }>, meta: ReplyMeta): LlmCompletion {
  const completion = reply.kind === 'tools' ? TOOL_CALL_TOKENS : reply.words.length;
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [
      {
        index: 0,
        message:
          reply.kind === 'tools'
            ? { role: 'assistant', content: null, tool_calls: [...reply.calls] }
            : { role: 'assistant', content: reply.words.join(' ') },
        finish_reason: reply.kind === 'tools' ? 'tool_calls' : 'stop',
      },
    ],
    usage: {
      prompt_tokens: reply.promptTokens,
      completion_tokens: completion,
      total_tokens: reply.promptTokens + completion,
    },
  };
}

/** One event of a stream and when to send it, in ms after the request was read. */
export interface TimedChunk {
  readonly atMs: number;
  readonly chunk: LlmChunk;
}

/**
 * The stream of a reply: after the first-token wait, tool calls as OpenAI sends parallel calls (one
 * chunk naming every call with empty arguments, then one chunk of arguments per call, then the
 * finish), or text as a role chunk, one chunk per word `itl` apart, and the finish. `[DONE]`
 * follows the last (the server writes it).
 */
export function streamOf(reply: Exclude<Reply, { kind: 'error' }>, meta: ReplyMeta, knobs: LlmKnobs): TimedChunk[] {
  const chunk = (
    delta: LlmChunk['choices'][number]['delta'],
    finish: LlmChunk['choices'][number]['finish_reason'] = null,
  ): LlmChunk => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const at = knobs.ttftMs;
  if (reply.kind === 'tools') {
    return [
      {
        atMs: at,
        chunk: chunk({
          role: 'assistant',
          tool_calls: reply.calls.map((c, index) => ({
            index,
            id: c.id,
            type: 'function' as const,
            function: { name: c.function.name, arguments: '' },
          })),
        }),
      },
      ...reply.calls.map((c, index) => ({
        atMs: at,
        chunk: chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments } }] }),
      })),
      { atMs: at, chunk: chunk({}, 'tool_calls') },
    ];
  }
  // A word is sent, then the inter-token wait: the finish comes one wait after the last word.
  return [
    { atMs: at, chunk: chunk({ role: 'assistant', content: '' }) },
    ...reply.words.map((word, i) => ({ atMs: at + i * knobs.itlMs, chunk: chunk({ content: `${word} ` }) })),
    { atMs: at + reply.words.length * knobs.itlMs, chunk: chunk({}, 'stop') },
  ];
}
