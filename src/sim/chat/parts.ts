/**
 * @module sim/chat/parts
 * The objects the service writes, with keys in the order it writes them (wire-format.md): the four
 * bare parts, packets (`placement` then `obj`, `type` first in every obj), SearchDocs with their
 * score as a Python float, and the ChatFullResponse body.
 */
import type { CitationInfo, SearchDoc } from '../../api/index.js';
import { dumps, pyFloat, type PyFloat } from '../encode/index.js';
import { isRetryable } from './config.js';

/** A SearchDoc ready for the encoder: the score prints as a Python float. */
export type WireDoc = Omit<SearchDoc, 'score'> & { score: PyFloat | null };

/** Marks the score of a SearchDoc as a float, keeping every key where it was. */
export const wireDoc = (doc: SearchDoc): WireDoc => ({ ...doc, score: doc.score == null ? null : pyFloat(doc.score) });

/** `{placement, obj}`; `modelIndex` null on heartbeats. */
export function packet(turn: number, modelIndex: number | null, obj: { type: string; [key: string]: unknown }) {
  return { placement: { turn_index: turn, tab_index: 0, sub_turn_index: null, model_index: modelIndex }, obj };
}

export const sessionPart = (chatSessionId: string, incognito: boolean) => ({ chat_session_id: chatSessionId, incognito });

export const messageIdsPart = (userMessageId: number, assistantMessageId: number) =>
  ({ user_message_id: userMessageId, reserved_assistant_message_id: assistantMessageId });

export const multiModelIdsPart = (userMessageId: number, responses: ReadonlyArray<{ message_id: number; model_name: string }>) =>
  ({ user_message_id: userMessageId, responses: responses.map((r) => ({ message_id: r.message_id, model_name: r.model_name })) });

/**
 * A streaming error. `details.model_index` names the failing model in multi-model mode; a single
 * model's error has `details: null`.
 */
export function streamingErrorPart(error: string, errorCode: string, modelIndex: number | null, retryable = isRetryable(errorCode)) {
  return {
    error,
    stack_trace: null,
    error_code: errorCode,
    is_retryable: retryable,
    details: modelIndex === null ? null : { model_index: modelIndex },
  };
}

/** The human text of a simulated mid-stream failure. */
export const errorMessage = (code: string): string => `Simulated ${code}: the model stream failed before the answer was complete.`;

/** The search tool call as ChatFullResponse.tool_calls lists it. */
export function searchToolCall(queries: readonly string[], docs: readonly WireDoc[]) {
  const summary = docs.map((d, i) => ({ document_number: i + 1, document_id: d.document_id, title: d.semantic_identifier, link: d.link }));
  return {
    tool_name: 'run_search',
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
  queries: readonly string[];
  documents: readonly WireDoc[];
  citations: ReadonlyArray<Pick<CitationInfo, 'citation_number' | 'document_id'>>;
  messageId: number;
  chatSessionId: string;
  incognito: boolean;
  errorMsg: string | null;
}

/** ChatFullResponse (stream=false), fields in the description's order. */
export function fullResponse(input: FullResponseInput) {
  return {
    answer: input.answer,
    answer_citationless: input.answerCitationless,
    pre_answer_reasoning: input.reasoning,
    tool_calls: [searchToolCall(input.queries, input.documents)],
    top_documents: input.documents,
    citation_info: input.citations.map((c) => ({ type: 'citation_info', citation_number: c.citation_number, document_id: c.document_id })),
    message_id: input.messageId,
    chat_session_id: input.chatSessionId,
    incognito: input.incognito,
    error_msg: input.errorMsg,
  };
}
