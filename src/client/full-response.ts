/**
 * @module client/full-response
 * Figures of a `stream=false` answer (ChatFullResponse). Only `headers` and `done` exist as
 * milestones; the caller sets headers_ms, and total_ms is the end of the body. A body that is not the
 * schema's shape (HTML, empty, wrong JSON) is invalid_response; `error_msg` set is stream_error.
 */
import { z } from 'zod';
import { ChatFullResponseSchema } from '../api/documents.js';
import { citedDocumentIds, markersWithoutCitation } from '../records/citations.js';
import type { BodyFigures } from './exchange.js';
import { truncateText } from './exchange.js';

/** Folds a complete full-mode body, received `totalMs` after sent. */
export function fullResponseFigures(body: string, totalMs: number): BodyFigures {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return invalid(totalMs, body.trim() === '' ? 'the response body was empty' : `the response body is not JSON: ${body.trim()}`);
  }
  const parsed = ChatFullResponseSchema.safeParse(value);
  if (!parsed.success) return invalid(totalMs, `the response is not a ChatFullResponse: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`);
  const r = parsed.data;
  const citations = r.citation_info.map(({ citation_number, document_id }) => ({ citation_number, document_id }));
  const failed = r.error_msg != null && r.error_msg !== '';
  return {
    ...emptyFigures(totalMs),
    outcome: failed ? 'stream_error' : 'ok',
    error_message: failed ? truncateText(r.error_msg ?? '') : null,
    answer: r.answer,
    answer_chars: [...r.answer].length,
    citations,
    cited_document_ids: citedDocumentIds(citations),
    top_document_ids: r.top_documents.map((d) => d.document_id),
    markers_without_citation: markersWithoutCitation(r.answer, citations),
    reasoning_chars: r.pre_answer_reasoning?.length ?? 0,
    chat_session_id: r.chat_session_id ?? null,
    message_id: r.message_id,
  };
}

function invalid(totalMs: number, message: string): BodyFigures {
  return { ...emptyFigures(totalMs), outcome: 'invalid_response', error_message: truncateText(message) };
}

/** Every figure absent: what a request that produced no body has. */
export function emptyFigures(totalMs: number | null): BodyFigures {
  return {
    outcome: 'invalid_response', error_code: null, error_message: null,
    ttfp_ms: null, ttft_ms: null, first_citation_ms: null, total_ms: totalMs, tpot_ms: null,
    first_packet_ms: {}, answer_gaps_ms: [], parts: 0, answer_deltas: 0, answer_chars: 0, answer: null,
    citations: [], cited_document_ids: [], top_document_ids: [], markers_without_citation: [], reasoning_chars: 0,
    chat_session_id: null, message_id: null, unknown_parts: 0, decode_errors: 0, models: null,
  };
}
