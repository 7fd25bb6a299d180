/**
 * @module client/collect
 * Folds decoded stream parts, each with the moment its chunk arrived, into the figures of metrics.md.
 * Pure and cheap per part (it runs on the hot path): counters, first-seen times and string chunks;
 * joining, sorting and rounding wait for finish().
 *
 * Definitions (metrics.md, with the choices it leaves open):
 * - Request ttfp: the first decoded part of any kind (session, ids, packet, streaming error);
 *   `chat_heartbeat` packets and decode errors never count, and are not counted in `parts`.
 * - A model's ttfp (multi-model `models[]`): the first part carrying its model_index (or its
 *   streaming error); the shared session/ids parts belong to the request, not to a model.
 * - ttft: first `message_delta` with non-empty content; `answer_deltas`, gaps and tpot count only
 *   those. tpot = (last answer delta - first) / (answer_deltas - 1).
 * - A streaming error with `details.model_index` ends that model; without it, every unfinished model.
 *   A `stop` with a null model_index (user cancel) stops every unfinished model.
 * - A decode error taints the models still streaming (any of them may have lost the part); a tainted
 *   model that would otherwise be ok or truncated is `invalid_response`. A stream with no part at all
 *   is `invalid_response`.
 * - Single model: the record's figures are model 0's, total = end of body. Multi-model: each model's
 *   total is its stop or error (end of body if neither); the record keeps request-wide times (ttfp,
 *   earliest ttft and first citation, total = end of body) and sums, with answer/citations per model
 *   only (`answer: null` at the top).
 */
import type { StreamPart } from '../api/stream.js';
import { KNOWN_PACKET_TYPES } from '../api/stream.js';
import type { Outcome } from '../records/record.js';
import { citedDocumentIds, markersWithoutCitation } from '../records/citations.js';
import type { BodyFigures, Failure, UnscoredModelFigures } from './exchange.js';
import { roundMs, truncateText } from './exchange.js';
import { worseOutcome, worstOutcome } from './outcome.js';

type Citation = BodyFigures['citations'][number];

interface ModelState {
  index: number;
  name: string | null;
  /** Set by stop, a streaming error or finish(). */
  outcome: Outcome | undefined;
  errorCode: string | null;
  errorMessage: string | null;
  tainted: boolean;
  firstPart: number | undefined;
  firstAnswer: number | undefined;
  lastAnswer: number | undefined;
  firstCitation: number | undefined;
  end: number | undefined;
  firstPacket: Record<string, number>;
  gaps: number[];
  parts: number;
  answerDeltas: number;
  answer: string[];
  citations: Citation[];
  topDocumentIds: string[];
  reasoningChars: number;
}

export interface CollectorOptions {
  /** Monotonic ms of `sent`; every milestone is relative to it. */
  sent: number;
  /** Multi-model: the expected model names, one per slot (from llm_overrides). Omit for a single model. */
  modelNames?: readonly string[] | null;
}

/** Folds parts as they arrive; see the module header for every definition. */
export interface Collector {
  /** `t`: monotonic ms when the chunk carrying the part arrived. */
  onPart(part: StreamPart, t: number): void;
  /** Closes the fold at `t` (end of body, or the failure's moment) and returns the figures. */
  finish(t: number, failure?: Failure): BodyFigures;
}

/** Creates a collector for one attempt. */
export function createCollector(options: CollectorOptions): Collector {
  const { sent } = options;
  const models: ModelState[] = [];
  let multi = options.modelNames != null;
  options.modelNames?.forEach((name, i) => (slot(i).name = name));
  let firstPart: number | undefined;
  let parts = 0;
  let unknownParts = 0;
  let decodeErrors = 0;
  let chatSessionId: string | null = null;
  let messageId: number | null = null;
  const requestFirstPacket: Record<string, number> = {};

  function slot(index: number): ModelState {
    for (let i = models.length; i <= index; i++) models.push(newModel(i));
    return models[index] as ModelState;
  }
  const unfinished = () => models.filter((m) => m.outcome === undefined);
  const counted = (t: number) => {
    parts++;
    firstPart ??= t;
  };

  function onPacket(part: Extract<StreamPart, { kind: 'packet' }>['part'], t: number): void {
    const { obj } = part;
    const type = obj.type as string; // the generic packet's type is a string too
    if (type === 'chat_heartbeat') return;
    counted(t);
    if (!KNOWN_PACKET_TYPES.has(type)) unknownParts++;
    requestFirstPacket[type] ??= t;
    const index = part.placement.model_index;
    if (index == null) {
      if (type === 'stop') for (const m of unfinished().length > 0 ? unfinished() : [slot(0)]) stopModel(m, t);
      return;
    }
    const model = slot(index);
    model.parts++;
    model.firstPart ??= t;
    model.firstPacket[type] ??= t;
    if (model.outcome !== undefined) return; // after its stop or error: counted, nothing more
    foldObj(model, obj, t);
  }

  return {
    onPart(part, t) {
      switch (part.kind) {
        case 'decode_error': {
          decodeErrors++;
          const open = unfinished();
          for (const m of open.length > 0 ? open : models.length > 0 ? models : [slot(0)]) m.tainted = true;
          return;
        }
        case 'session_created':
          counted(t);
          chatSessionId = part.part.chat_session_id;
          return;
        case 'message_ids':
          counted(t);
          messageId = part.part.reserved_assistant_message_id;
          return;
        case 'multi_model_ids':
          counted(t);
          multi = true;
          part.part.responses.forEach((r, i) => (slot(i).name = r.model_name));
          return;
        case 'streaming_error': {
          counted(t);
          const index = part.part.details?.model_index;
          const open = unfinished();
          const targets = index != null ? [slot(index)] : open.length > 0 ? open : models.length > 0 ? [] : [slot(0)];
          for (const m of targets) {
            if (m.outcome !== undefined) continue;
            m.outcome = 'stream_error';
            m.errorCode = part.part.error_code ?? null;
            m.errorMessage = truncateText(part.part.error);
            m.end = t;
            m.firstPart ??= t;
          }
          return;
        }
        case 'packet':
          onPacket(part.part, t);
      }
    },
    finish(t, failure) {
      if (models.length === 0) slot(0);
      const empty = parts === 0 && decodeErrors === 0 && failure === undefined;
      for (const m of models) settle(m, t, failure, empty);
      const rel = (x: number | undefined) => (x === undefined ? null : roundMs(x - sent));
      const figures = models.map((m) => modelFigures(m, rel, multi));
      const outcome = worstOutcome([...figures.map((f) => f.outcome), ...(failure ? [failure.outcome] : [])]);
      const culprit = figures.find((f) => f.outcome === outcome && f.error_code !== null);
      const common = {
        outcome,
        error_code: culprit?.error_code ?? (failure?.outcome === outcome ? failure.error_code : null) ?? null,
        error_message: culprit?.error_message ?? (failure?.outcome === outcome ? failure.error_message : null) ?? null,
        ttfp_ms: rel(firstPart),
        total_ms: rel(t),
        parts,
        chat_session_id: chatSessionId,
        message_id: multi ? null : messageId,
        unknown_parts: unknownParts,
        decode_errors: decodeErrors,
      };
      if (!multi) {
        const { model_index: _i, model_name: _n, scores: _s, ...single } = figures[0] as UnscoredModelFigures;
        return { ...single, ...common, models: null };
      }
      return { ...multiTotals(figures, rel, requestFirstPacket), ...common, models: figures };
    },
  };
}

function newModel(index: number): ModelState {
  return {
    index, name: null, outcome: undefined, errorCode: null, errorMessage: null, tainted: false,
    firstPart: undefined, firstAnswer: undefined, lastAnswer: undefined, firstCitation: undefined, end: undefined,
    firstPacket: {}, gaps: [], parts: 0, answerDeltas: 0, answer: [], citations: [], topDocumentIds: [], reasoningChars: 0,
  };
}

function stopModel(m: ModelState, t: number): void {
  if (m.outcome !== undefined) return;
  m.outcome = 'ok';
  m.end = t;
}

type PacketObj = Extract<StreamPart, { kind: 'packet' }>['part']['obj'];

function foldObj(m: ModelState, obj: PacketObj, t: number): void {
  switch (obj.type as string) {
    case 'message_delta': {
      const content = (obj as { content: string }).content;
      if (content === '') return;
      if (m.lastAnswer !== undefined) m.gaps.push(t - m.lastAnswer);
      m.firstAnswer ??= t;
      m.lastAnswer = t;
      m.answerDeltas++;
      m.answer.push(content);
      return;
    }
    case 'citation_info': {
      const { citation_number, document_id } = obj as { citation_number: number; document_id: string };
      m.citations.push({ citation_number, document_id });
      m.firstCitation ??= t;
      return;
    }
    case 'message_start': {
      const docs = (obj as { final_documents?: { document_id: string }[] | null }).final_documents;
      if (docs != null) m.topDocumentIds = docs.map((d) => d.document_id);
      return;
    }
    case 'reasoning_delta':
      m.reasoningChars += (obj as { reasoning: string }).reasoning.length;
      return;
    case 'stop':
      stopModel(m, t);
  }
}

function settle(m: ModelState, t: number, failure: Failure | undefined, empty: boolean): void {
  if (m.outcome === undefined) {
    m.end = t;
    if (failure) {
      m.outcome = failure.outcome;
      m.errorCode = failure.error_code;
      m.errorMessage = failure.error_message;
    } else if (empty) {
      m.outcome = 'invalid_response';
      m.errorMessage = 'the response stream was empty';
    } else {
      m.outcome = 'truncated';
    }
  }
  if (m.tainted) m.outcome = worseOutcome(m.outcome, 'invalid_response');
}

function modelFigures(m: ModelState, rel: (x: number | undefined) => number | null, multi: boolean): UnscoredModelFigures {
  const answer = m.answer.join('');
  const span = m.firstAnswer !== undefined && m.lastAnswer !== undefined ? m.lastAnswer - m.firstAnswer : 0;
  return {
    model_index: m.index,
    model_name: m.name,
    outcome: m.outcome ?? 'truncated',
    error_code: m.errorCode,
    error_message: m.errorMessage,
    ttfp_ms: rel(m.firstPart),
    ttft_ms: rel(m.firstAnswer),
    first_citation_ms: rel(m.firstCitation),
    total_ms: multi ? rel(m.end) : null, // single model: the request's end, set by the caller
    tpot_ms: m.answerDeltas >= 2 ? roundMs(span / (m.answerDeltas - 1)) : null,
    first_packet_ms: Object.fromEntries(Object.entries(m.firstPacket).map(([type, at]) => [type, rel(at) as number])),
    answer_gaps_ms: m.gaps.map(roundMs),
    parts: m.parts,
    answer_deltas: m.answerDeltas,
    answer_chars: codePoints(answer),
    answer: m.answerDeltas > 0 ? answer : null,
    citations: m.citations,
    cited_document_ids: citedDocumentIds(m.citations),
    top_document_ids: m.topDocumentIds,
    markers_without_citation: markersWithoutCitation(answer, m.citations),
    reasoning_chars: m.reasoningChars,
    scores: null,
  };
}

function multiTotals(
  figures: readonly UnscoredModelFigures[], rel: (x: number | undefined) => number | null, firstPacket: Record<string, number>,
) {
  const earliest = (pick: (f: UnscoredModelFigures) => number | null) =>
    figures.reduce<number | null>((min, f) => { const v = pick(f); return v !== null && (min === null || v < min) ? v : min; }, null);
  const sum = (pick: (f: UnscoredModelFigures) => number) => figures.reduce((total, f) => total + pick(f), 0);
  return {
    ttft_ms: earliest((f) => f.ttft_ms),
    first_citation_ms: earliest((f) => f.first_citation_ms),
    tpot_ms: null,
    first_packet_ms: Object.fromEntries(Object.entries(firstPacket).map(([type, at]) => [type, rel(at) as number])),
    answer_gaps_ms: [],
    answer_deltas: sum((f) => f.answer_deltas),
    answer_chars: sum((f) => f.answer_chars),
    answer: null,
    citations: [],
    cited_document_ids: [],
    top_document_ids: [],
    markers_without_citation: [],
    reasoning_chars: sum((f) => f.reasoning_chars),
  };
}

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
