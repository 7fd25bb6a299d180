/**
 * @module sim/chat/parts
 * The objects the service writes, with keys in the order it writes them (docs/reference/wire-format.md): the four
 * bare parts, packets (`placement` then `obj`, `type` first in every obj), SearchDocs with their
 * score as a Python float, and the ChatFullResponse body.
 */
import type { CitationInfo, SearchDoc } from '../../api/index.js';
import { dumps, pyFloat, type PyFloat } from '../encode/index.js';
import type { PlacementStyle } from '../releases.js';
import { isRetryable } from './config.js';

/** A SearchDoc ready for the encoder: the score prints as a Python float. */
export type WireDoc = Omit<SearchDoc, 'score'> & { score: PyFloat | null };

/** Marks the score of a SearchDoc as a float, keeping every key where it was. */
export const wireDoc = (doc: SearchDoc): WireDoc => ({ ...doc, score: doc.score == null ? null : pyFloat(doc.score) });

/** Where a packet goes besides its turn: a tab (parallel tool calls, research agents) and a nested sub-turn. */
export interface Where {
  tab?: number;
  subTurn?: number | null;
}

/**
 * `{placement, obj}`; `modelIndex` null on heartbeats. `style` is the release's: from v3.2 the
 * model_index is set, v3.1 writes it null on every packet, and before v3.1 the key is absent.
 */
export function packet(
  turn: number,
  modelIndex: number | null,
  obj: { type: string; [key: string]: unknown },
  style: PlacementStyle = 'set',
  where: Where = {},
) {
  const base = { turn_index: turn, tab_index: where.tab ?? 0, sub_turn_index: where.subTurn ?? null };
  return { placement: style === 'absent' ? base : { ...base, model_index: style === 'null' ? null : modelIndex }, obj };
}

/** The session-created line; `incognito` only from v4.6 (`withIncognito`). */
export const sessionPart = (chatSessionId: string, incognito: boolean, withIncognito = true) =>
  withIncognito ? { chat_session_id: chatSessionId, incognito } : { chat_session_id: chatSessionId };

export const messageIdsPart = (userMessageId: number, assistantMessageId: number) => ({
  user_message_id: userMessageId,
  reserved_assistant_message_id: assistantMessageId,
});

export const multiModelIdsPart = (
  userMessageId: number,
  responses: ReadonlyArray<{ message_id: number; model_name: string }>,
) => ({
  user_message_id: userMessageId,
  responses: responses.map((r) => ({ message_id: r.message_id, model_name: r.model_name })),
});

/**
 * A streaming error. `details` as the release writes it: `{model, provider}` for a model's error
 * (v3.2+ adds `model_index`, v4.5+ `tool_choice` and `finish_reason` for an empty answer), null for
 * an error of the request as a whole.
 */
export function streamingErrorPart(
  error: string,
  errorCode: string,
  details: Record<string, unknown> | null,
  retryable = isRetryable(errorCode),
) {
  return {
    error,
    stack_trace: null,
    error_code: errorCode,
    is_retryable: retryable,
    details,
  };
}

/** The human text of a simulated mid-stream failure. */
export const errorMessage = (code: string): string =>
  `Simulated ${code}: the model stream failed before the answer was complete.`;

/** The internal search call as ChatFullResponse.tool_calls lists it (deep research: the documents its report cites). */
export function searchToolCall(queries: readonly string[], docs: readonly WireDoc[]) {
  const summary = docs.map((d, i) => ({
    document_number: i + 1,
    document_id: d.document_id,
    title: d.semantic_identifier,
    link: d.link,
  }));
  return {
    tool_name: 'internal_search',
    tool_arguments: { queries: [...queries] },
    tool_result: dumps(summary),
    search_docs: docs,
    generated_images: null,
    pre_reasoning: null,
  };
}

export interface FullResponseInput {
  answer: string;
  answerCitationless: string;
  reasoning: string | null;
  /** ToolCallResponse entries, one per tool used. */
  toolCalls: readonly unknown[];
  documents: readonly WireDoc[];
  citations: ReadonlyArray<Pick<CitationInfo, 'citation_number' | 'document_id'>>;
  messageId: number;
  chatSessionId: string | null;
  incognito: boolean;
  /** v4.6+: the body carries `incognito` (between chat_session_id and error_msg). */
  withIncognito: boolean;
  errorMsg: string | null;
}

/** ChatFullResponse (stream=false), fields in the description's order. */
export function fullResponse(input: FullResponseInput) {
  return {
    answer: input.answer,
    answer_citationless: input.answerCitationless,
    pre_answer_reasoning: input.reasoning,
    tool_calls: input.toolCalls,
    top_documents: input.documents,
    citation_info: input.citations.map((c) => ({
      type: 'citation_info',
      citation_number: c.citation_number,
      document_id: c.document_id,
    })),
    message_id: input.messageId,
    chat_session_id: input.chatSessionId,
    ...(input.withIncognito ? { incognito: input.incognito } : {}),
    error_msg: input.errorMsg,
  };
}
