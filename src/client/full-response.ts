/**
 * @module client/full-response
 * Figures of a `stream=false` answer (ChatFullResponse). Only `headers` and `done` exist as
 * milestones; the caller sets headers_ms, and total_ms is the end of the body. A body that is not the
 * schema's shape (HTML, empty, wrong JSON) is invalid_response; `error_msg` set is stream_error; an
 * empty `answer` without error_msg is empty_answer. Every release's body reads (`incognito`, v4.6+,
 * defaults to false). Markers without citation_info resolve by the link of a given document
 * (top_documents and every tool call's search_docs), as in a stream. `tools_used` are the
 * `tool_calls` names (records/tools.ts: an older name such as `run_search` is read as its newer one).
 */
import { z } from 'zod';
import { ChatFullResponseSchema, type ChatFullResponse } from '../api/documents.js';
import { citedDocumentIds, resolveMarkers } from '../records/citations.js';
import { boundDocuments } from '../records/quality.js';
import { canonicalToolName } from '../records/tools.js';
import { countCodePoints, DEFAULT_MAX_ANSWER_BYTES } from './collect.js';
import {
  isAnything,
  isDocs,
  isInt,
  isNullish,
  isNullishString,
  isPlainRecord,
  isRecord,
  isString,
} from './wire/decode-part.js';
import type { BodyFigures } from './exchange.js';
import { truncateText } from './exchange.js';
import { cutUtf8 } from './cut-utf8.js';

/**
 * Folds a complete full-mode body, received `totalMs` after sent; the answer kept is cut at
 * `maxAnswerBytes`; `keepDocuments` false leaves top_documents empty (collect.ts CollectorOptions).
 */
export function fullResponseFigures(
  body: string,
  totalMs: number,
  maxAnswerBytes = DEFAULT_MAX_ANSWER_BYTES,
  keepDocuments = true,
): BodyFigures {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return invalid(
      totalMs,
      body.trim() === '' ? 'the response body was empty' : `the response body is not JSON: ${body.trim()}`,
    );
  }
  const parsed = isCheckedFullResponse(value)
    ? { success: true as const, data: value }
    : ChatFullResponseSchema.safeParse(value);
  if (!parsed.success)
    return invalid(
      totalMs,
      `the response is not a ChatFullResponse: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`,
    );
  const r = parsed.data;
  const citations = r.citation_info.map(({ citation_number, document_id }) => ({ citation_number, document_id }));
  const failed = r.error_msg != null && r.error_msg !== '';
  const { marker_citations, markers_without_citation } = markerFigures(r, citations);
  const kept = cutUtf8(r.answer, maxAnswerBytes);
  const cited = citedDocumentIds(citations, marker_citations);
  // emptyFigures' keys in its order, these set: the one list of a body's figures (full-response-check.test.ts holds the order).
  return {
    ...emptyFigures(totalMs),
    outcome: failed ? 'stream_error' : r.answer === '' ? 'empty_answer' : 'ok',
    error_message: failed
      ? truncateText(r.error_msg ?? '')
      : r.answer === ''
        ? 'the full response has an empty answer'
        : null,
    answer_chars: countCodePoints(r.answer),
    answer: kept,
    answer_truncated: kept.length < r.answer.length,
    citations,
    marker_citations,
    cited_document_ids: cited,
    top_document_ids: r.top_documents.map((d) => d.document_id),
    top_documents: keepDocuments ? boundDocuments(r.top_documents, cited) : [],
    markers_without_citation,
    reasoning_chars: r.pre_answer_reasoning?.length ?? 0,
    tools_used: toolsUsed(r.tool_calls),
    chat_session_id: r.chat_session_id ?? null,
    message_id: r.message_id,
  };
}

/**
 * The answer's markers resolved (records/citations resolveMarkers). The links of the documents are
 * read only for a marker without its citation_info: almost every answer has none, and a map of
 * every document's link built for each answer was ~3% of the full path's CPU (docs/benchmarks-log.md,
 * "Session 38"). Without links such a marker is left without citation, so the links are read then
 * and the answer resolved again: the same result as resolving with the links at once.
 */
function markerFigures(
  r: ChatFullResponse,
  citations: Parameters<typeof resolveMarkers>[1],
): ReturnType<typeof resolveMarkers> {
  const withoutLinks = resolveMarkers(r.answer, citations, NO_LINKS);
  if (withoutLinks.markers_without_citation.length === 0) return withoutLinks;
  return resolveMarkers(r.answer, citations, documentLinks(r));
}
const NO_LINKS: ReadonlyMap<string, string> = new Map();

/** Trimmed link → document id of every document given (top_documents, then each tool call's search_docs); the first one wins. */
function documentLinks(r: ChatFullResponse): Map<string, string> {
  const links = new Map<string, string>();
  addLinks(links, r.top_documents);
  for (const call of r.tool_calls) if (call.search_docs) addLinks(links, call.search_docs);
  return links;
}

/** Each document's trimmed link → its id, unless an earlier document gave that link. */
function addLinks(links: Map<string, string>, documents: ChatFullResponse['top_documents']): void {
  for (const d of documents) {
    const link = d.link?.trim();
    if (link && !links.has(link)) links.set(link, d.document_id);
  }
}

/** The tools' canonical names, each once, in order of first call (records/tools.ts). */
function toolsUsed(calls: ChatFullResponse['tool_calls']): string[] {
  const names: string[] = [];
  for (const call of calls) {
    const name = canonicalToolName(call.tool_name);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

const isImage = (v: unknown): boolean =>
  isRecord(v) && isString(v.file_id) && isString(v.url) && isString(v.revised_prompt) && isNullishString(v.shape);
const isImages = (images: unknown): boolean => Array.isArray(images) && images.every(isImage);
const isToolCall = (v: unknown): boolean =>
  isRecord(v) &&
  isString(v.tool_name) &&
  isPlainRecord(v.tool_arguments, isAnything) &&
  isString(v.tool_result) &&
  isNullish(v.search_docs, isDocs) &&
  isNullish(v.generated_images, isImages) &&
  isNullishString(v.pre_reasoning);
const isCitation = (v: unknown): boolean =>
  isRecord(v) && v.type === 'citation_info' && isInt(v.citation_number) && isString(v.document_id);

/**
 * ChatFullResponseSchema (api/documents.ts) by hand, for a body that needs none of its defaults
 * (tool_calls, incognito and each citation's type are there): such a value is what the schema
 * would output. Anything else goes through the schema, which fills the defaults and words errors.
 */
export function isCheckedFullResponse(v: unknown): v is ChatFullResponse {
  return (
    isRecord(v) &&
    isString(v.answer) &&
    isString(v.answer_citationless) &&
    isNullishString(v.pre_answer_reasoning) &&
    Array.isArray(v.tool_calls) &&
    v.tool_calls.every(isToolCall) &&
    isDocs(v.top_documents) &&
    Array.isArray(v.citation_info) &&
    v.citation_info.every(isCitation) &&
    isInt(v.message_id) &&
    isNullishString(v.chat_session_id) &&
    typeof v.incognito === 'boolean' &&
    isNullishString(v.error_msg)
  );
}

function invalid(totalMs: number, message: string): BodyFigures {
  return { ...emptyFigures(totalMs), outcome: 'invalid_response', error_message: truncateText(message) };
}

/** Every figure absent: what a request that produced no body has. */
export function emptyFigures(totalMs: number | null): BodyFigures {
  return {
    outcome: 'invalid_response',
    error_code: null,
    error_message: null,
    ttfp_ms: null,
    ttft_ms: null,
    first_citation_ms: null,
    total_ms: totalMs,
    time_per_delta_ms: null,
    first_packet_ms: {},
    answer_gaps_ms: [],
    parts: 0,
    answer_deltas: 0,
    answer_chars: 0,
    answer: null,
    answer_truncated: false,
    citations: [],
    marker_citations: [],
    cited_document_ids: [],
    top_document_ids: [],
    top_documents: [],
    markers_without_citation: [],
    reasoning_chars: 0,
    tool_errors: 0,
    pre_answer_processing_seconds: null,
    output_chars_per_s: null,
    tools_used: [],
    chat_session_id: null,
    message_id: null,
    unknown_parts: 0,
    decode_errors: 0,
    models: null,
    answered_models: null,
    error_retryable: null,
  };
}
