/**
 * @module client/collect
 * Folds decoded stream parts, each with the moment its chunk arrived, into the figures of docs/reference/metrics.md.
 * Pure and cheap per part (it runs on the hot path): counters, first-seen times and string chunks;
 * joining, sorting and rounding wait for finish().
 *
 * Definitions (docs/reference/metrics.md, with the choices it leaves open):
 * - Request ttfp: the first decoded part of any kind (session, ids, packet, streaming error);
 *   `chat_heartbeat` packets and decode errors never count, and are not counted in `parts`.
 * - A model's ttfp (multi-model `models[]`): the first part carrying its model_index (or its
 *   streaming error); the shared session/ids parts belong to the request, not to a model.
 * - The next runtime (upstream be8920ec): `answer_metadata` is read as `message_start`, and the
 *   answer text of `pydantic_ai` packets (wire/agent-event.ts) as `message_delta` content; their
 *   thinking and non-answer phases as reasoning.
 * - ttft: first `message_delta` with non-empty content; `answer_deltas`, gaps, tpot and
 *   output_chars_per_s count only those. tpot = (last answer delta - first) / (answer_deltas - 1);
 *   output_chars_per_s = characters of the deltas after the first / (last - first) in seconds.
 * - Every release (docs/reference/onyx-releases.md): a packet without `model_index`, or with it null, belongs to
 *   model 0 in a single-model stream (before v3.1 the key is absent; v3.1 sends null). In a
 *   multi-model stream a null model_index is the request's own (heartbeats; a user-cancel stop).
 * - Whether the stream is multi-model is what the service answered: its ids part. A request that
 *   asked for several models (llm_overrides) and got the single-model ids part was answered by one
 *   model (a release before v3.2 ignores llm_overrides): that one model is recorded as the only
 *   `models[]` entry, `answered_models: 1`, and the request is invalid_response, never scored as if
 *   every model had answered.
 * - A model_index outside the request's models (negative, huge, or ≥ the number asked) in a packet
 *   or a streaming error's `details` is a decode error of that part: nothing is allocated for it.
 * - A `stop` with no answer text before it is `empty_answer`, not ok.
 * - A `{"type": "error"}` packet (a tool failed, v3.2+) is counted in `tool_errors`; the answer goes on.
 * - The tools an answer used (`tools_used`) are named by their start packets (records/tools.ts),
 *   each once, in order of first use. Each model's assistant message id (the ids part) is kept on
 *   its `models[]` entry, so that a conversation can continue from the answer of any model.
 * - A streaming error with `details.model_index` ends that model; without it, every unfinished model.
 *   A `stop` with a null model_index in a multi-model stream (user cancel) stops every unfinished model.
 * - A decode error taints the models still streaming (any of them may have lost the part); a tainted
 *   model that would otherwise be ok, empty or truncated is `invalid_response`, and its error_message
 *   names the part and field. A stream with no part at all is `invalid_response`.
 * - The answer kept is capped at `maxAnswerBytes` (UTF-8, counted exactly) per answer, cut at a
 *   character: `answer_truncated` says so, and answer_chars, the deltas and the timings still count
 *   the whole answer.
 * - Citations: markers with no citation_info whose link is the link of a document the model was
 *   given (any SearchDoc of its stream) cite that document (`marker_citations`, records/citations.ts).
 * - Single model: the record's figures are model 0's, total = end of body. Multi-model: each model's
 *   total is its stop or error (end of body if neither); the record keeps request-wide times (ttfp,
 *   earliest ttft and first citation, total = end of body) and sums, with answer/citations per model
 *   only (`answer: null` at the top).
 * - Bounded whatever the stream holds (issue 23, records/bounds.ts): the first time of at most
 *   RECORD_BOUNDS.packetTypes packet types per map (the others counted in
 *   first_packet_others), the first RECORD_BOUNDS.gaps gaps, RECORD_BOUNDS.listItems
 *   citations and tools, MAX_LINKS links; counts and timings still see every part.
 */
import type { StreamPart } from '../api/stream.js';
import { KNOWN_PACKET_TYPES } from '../api/stream.js';
import { agentEventText } from './wire/agent-event.js';
import { TOOL_START_PACKETS, toolOfPacket } from '../records/tools.js';
import type { Outcome } from '../records/record.js';
import { citedDocumentIds, resolveMarkers } from '../records/citations.js';
import { boundDocuments, type DocumentLike } from '../records/quality.js';
import type { BodyFigures, Failure, UnscoredModelFigures } from './exchange.js';
import { truncateText } from './exchange.js';
import { cutUtf8 } from './cut-utf8.js';
import { roundMs } from '../records/round-ms.js';
import { worseOutcome, worstOutcome } from './outcome.js';
import { cutText, RECORD_BOUNDS } from '../records/bounds.js';

/** Links remembered per model for marker citations: far above any answer's documents. */
const MAX_LINKS = 10_000;

/** A string the service sent, as long as a record keeps it (records/bounds.ts): cut when it arrives, never held whole. */
const id = (text: string): string =>
  text.length > RECORD_BOUNDS.idChars ? cutText(text, RECORD_BOUNDS.idChars) : text;

/** Records `type`'s first time in `map` unless the map is full; false when it was full and the type new. */
function notePacket(map: Record<string, number>, type: string, t: number, size: { n: number }): boolean {
  const key = id(type);
  if (map[key] !== undefined) return true;
  if (size.n >= RECORD_BOUNDS.packetTypes) return false;
  map[key] = t;
  size.n++;
  return true;
}

type Citation = BodyFigures['citations'][number];

/** Distinct unknown packet kinds named per request (`unknown_part_kinds`); more are only counted. */
const MAX_UNKNOWN_KINDS = 20;

/** Default cap of the answer text kept per answer: 1 MiB of UTF-8. */
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;

interface ModelState {
  index: number;
  name: string | null;
  /** Set by stop, a streaming error or finish(). */
  outcome: Outcome | undefined;
  errorCode: string | null;
  errorMessage: string | null;
  retryable: boolean | null;
  /** The streaming error's details.model, when it names one. */
  errorModel: string | null;
  tainted: boolean;
  firstPart: number | undefined;
  firstAnswer: number | undefined;
  /**
   * The last answer delta's time; read only once answerDeltas > 0. A number from the start, never
   * undefined: V8 then keeps the field's double in place, where a field that held undefined boxes
   * each new time in an object of its own, which outlives the young generation (one a part).
   */
  lastAnswer: number;
  firstCitation: number | undefined;
  end: number | undefined;
  firstPacket: Record<string, number>;
  firstPacketSize: { n: number };
  /** Packets of types past the bound of firstPacket: counted, not timed. */
  otherPackets: number;
  /** The type of the model's last packet and whether firstPacket holds it (see the collector's lastType). */
  lastType: string | undefined;
  lastNoted: boolean;
  gaps: number[];
  parts: number;
  answerDeltas: number;
  /** Code points of every non-empty delta, kept or not. */
  answerChars: number;
  firstDeltaChars: number;
  answer: string[];
  /** At most 3 bytes a UTF-16 unit: the kept answer's UTF-8 bytes at most (see keepAnswer). */
  answerUpper: number;
  /** The kept answer's UTF-8 bytes, counted once answerUpper could pass the cap; -1 until then. */
  answerBytes: number;
  answerTruncated: boolean;
  citations: Citation[];
  topDocumentIds: string[];
  /** final_documents as sent; bounded into the record's top_documents when the model ends. */
  topDocuments: readonly DocumentLike[];
  /** Link → document id of every SearchDoc the model was given (first link wins). */
  links: Map<string, string>;
  reasoningChars: number;
  toolErrors: number;
  preAnswerSeconds: number | null;
  /** The model's assistant message id (ids part); what a follow-up names as its parent. */
  messageId: number | null;
  /** Tools used, in order of first use (records/tools.ts). */
  tools: string[];
}

export interface CollectorOptions {
  /** Monotonic ms of `sent`; every milestone is relative to it. */
  sent: number;
  /** Multi-model: the expected model names, one per slot (from llm_overrides). Omit for a single model. */
  modelNames?: readonly string[] | null;
  /** Answer text kept per answer, UTF-8 bytes (default 1 MiB). */
  maxAnswerBytes?: number;
  /**
   * Whether the figures keep the answer's documents (`top_documents`: title, link, blurb,
   * highlights; default true). A load run's records drop them (only a judge reads them), so it asks
   * for none and never bounds them; `top_document_ids`, which scoring reads, is kept either way.
   */
  keepDocuments?: boolean;
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
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const keepDocuments = options.keepDocuments ?? true;
  const asked = options.modelNames?.length ?? 1;
  const models: ModelState[] = [];
  let multi = options.modelNames != null;
  options.modelNames?.forEach((name, i) => (slot(i).name = name));
  let answeredSingle = false;
  let firstPart: number | undefined;
  let parts = 0;
  let unknownParts = 0;
  const unknownKinds: Record<string, number> = Object.create(null) as Record<string, number>;
  let decodeErrors = 0;
  let firstDecodeError: string | null = null;
  let chatSessionId: string | null = null;
  let messageId: number | null = null;
  const requestFirstPacket: Record<string, number> = {};
  const requestFirstPacketSize = { n: 0 };
  let requestOtherPackets = 0;
  // The type of the request's last packet, whether it is known and whether requestFirstPacket holds
  // it: an answer's deltas come one after another, so a run of one type is looked up once. Safe to
  // reuse: a map that holds a type keeps it, and one that was full when a new type came stays full.
  let lastType: string | undefined;
  let lastKnown = true;
  let lastNoted = true;

  function slot(index: number): ModelState {
    for (let i = models.length; i <= index; i++) models.push(newModel(i));
    return models[index] as ModelState;
  }
  const unfinished = () => models.filter((m) => m.outcome === undefined);
  const counted = (t: number) => {
    parts++;
    firstPart ??= t;
  };
  /** Indices a part may name: the request's models (one when the service answered with one). */
  const validIndex = (index: number) =>
    Number.isSafeInteger(index) && index >= 0 && index < (answeredSingle ? 1 : asked);
  const decodeError = (reason: string) => {
    decodeErrors++;
    firstDecodeError ??= reason;
    const open = unfinished();
    for (const m of open.length > 0 ? open : models.length > 0 ? models : [slot(0)]) m.tainted = true;
  };

  function onPacket(part: Extract<StreamPart, { kind: 'packet' }>['part'], t: number): void {
    const { obj } = part;
    const type = obj.type as string; // the generic packet's type is a string too
    if (type === 'chat_heartbeat') return;
    const given = part.placement.model_index;
    if (given != null && !validIndex(given)) {
      decodeError(
        `${type}: placement.model_index: ${given} is not a model of this request (${answeredSingle ? 1 : asked} asked)`,
      );
      return;
    }
    counted(t);
    if (type !== lastType) {
      lastType = type;
      lastKnown = KNOWN_PACKET_TYPES.has(type);
      lastNoted = notePacket(requestFirstPacket, type, t, requestFirstPacketSize);
    }
    if (!lastKnown) {
      unknownParts++;
      // Kinds are named for the unknown-protocol alarm; a stream of many new kinds stays bounded.
      if (type in unknownKinds || Object.keys(unknownKinds).length < MAX_UNKNOWN_KINDS)
        unknownKinds[type] = (unknownKinds[type] ?? 0) + 1;
    }
    if (!lastNoted) requestOtherPackets++;
    // Absent (before v3.1) or null (v3.1) in a single-model stream: model 0.
    const index = given ?? (multi ? null : 0);
    if (index === null) {
      if (type === 'stop') for (const m of unfinished().length > 0 ? unfinished() : [slot(0)]) stopModel(m, t);
      return;
    }
    const model = slot(index);
    model.parts++;
    model.firstPart ??= t;
    if (type !== model.lastType) {
      model.lastType = type;
      model.lastNoted = notePacket(model.firstPacket, type, t, model.firstPacketSize);
    }
    if (!model.lastNoted) model.otherPackets++;
    if (model.outcome !== undefined) return; // after its stop or error: counted, nothing more
    foldObj(model, obj, part.placement, t, maxAnswerBytes, keepDocuments);
  }

  return {
    onPart(part, t) {
      switch (part.kind) {
        case 'decode_error':
          decodeError(part.reason);
          return;
        case 'session_created':
          counted(t);
          chatSessionId = id(part.part.chat_session_id);
          return;
        case 'message_ids':
          counted(t);
          messageId = part.part.reserved_assistant_message_id;
          if (!multi) slot(0).messageId = messageId;
          if (multi && !answeredSingle && !models.some((m) => m.parts > 0 || m.outcome !== undefined)) {
            // Several models asked, the single-model ids part came: one model answers.
            answeredSingle = true;
            multi = false;
            models.length = 1;
            const only = models[0] as ModelState;
            only.name = null; // the service's configured model: llm_overrides were ignored
            only.messageId = messageId;
          }
          return;
        case 'multi_model_ids':
          counted(t);
          multi = true;
          part.part.responses.forEach((r, i) => {
            if (i >= asked) return;
            slot(i).name = id(r.model_name);
            slot(i).messageId = r.message_id;
          });
          return;
        case 'streaming_error': {
          const index = part.part.details?.model_index;
          if (index != null && !validIndex(index)) {
            decodeError(
              `streaming error: details.model_index: ${index} is not a model of this request (${answeredSingle ? 1 : asked} asked)`,
            );
            return;
          }
          counted(t);
          const open = unfinished();
          const targets = index != null ? [slot(index)] : open.length > 0 ? open : models.length > 0 ? [] : [slot(0)];
          for (const m of targets) {
            if (m.outcome !== undefined) continue;
            m.outcome = 'stream_error';
            m.errorCode = part.part.error_code == null ? null : id(part.part.error_code);
            m.errorMessage = truncateText(part.part.error);
            m.retryable = part.part.is_retryable ?? null;
            const named = part.part.details?.model;
            m.errorModel = typeof named === 'string' ? id(named) : null;
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
      for (const m of models) settle(m, t, failure, empty, firstDecodeError);
      const rel = (x: number | undefined) => (x === undefined ? null : roundMs(x - sent));
      const figures = models.map((m) => modelFigures(m, rel, multi || answeredSingle, keepDocuments));
      if (answeredSingle) {
        const only = figures[0] as UnscoredModelFigures;
        if (only.outcome === 'ok' || only.outcome === 'empty_answer' || only.outcome === 'truncated') {
          only.outcome = 'invalid_response';
          only.error_message = `${asked} models were asked (llm_overrides) but the service answered with one, its configured model: it ignores llm_overrides (an Onyx release before v3.2); the answer is kept, not scored`;
        }
      }
      const outcome = worstOutcome([...figures.map((f) => f.outcome), ...(failure ? [failure.outcome] : [])]);
      const culprit = figures.find((f) => f.outcome === outcome && (f.error_code !== null || f.error_message !== null));
      const culpritState = culprit === undefined ? undefined : models[culprit.model_index];
      const errorCode = culprit?.error_code ?? (failure?.outcome === outcome ? failure.error_code : null) ?? null;
      const errorMessage =
        culprit?.error_message ?? (failure?.outcome === outcome ? failure.error_message : null) ?? null;
      const errorRetryable = culpritState?.outcome === 'stream_error' ? culpritState.retryable : null;
      const errorModel = culpritState?.outcome === 'stream_error' ? culpritState.errorModel : null;
      if (!multi && !answeredSingle) {
        // One literal in the key order `{ ...modelFigures minus its model keys, ...common, models }` had:
        // a rest and two spreads of some 40 keys cost more than the whole fold of the stream.
        const f = figures[0] as UnscoredModelFigures;
        return {
          outcome,
          error_code: errorCode,
          error_message: errorMessage,
          ttfp_ms: rel(firstPart),
          ttft_ms: f.ttft_ms,
          first_citation_ms: f.first_citation_ms,
          total_ms: rel(t),
          time_per_delta_ms: f.time_per_delta_ms,
          first_packet_ms: f.first_packet_ms,
          ...(f.first_packet_others !== undefined ? { first_packet_others: f.first_packet_others } : {}),
          answer_gaps_ms: f.answer_gaps_ms,
          parts,
          answer_deltas: f.answer_deltas,
          answer_chars: f.answer_chars,
          answer: f.answer,
          answer_truncated: f.answer_truncated,
          citations: f.citations,
          marker_citations: f.marker_citations,
          cited_document_ids: f.cited_document_ids,
          top_document_ids: f.top_document_ids,
          top_documents: f.top_documents,
          markers_without_citation: f.markers_without_citation,
          reasoning_chars: f.reasoning_chars,
          tool_errors: f.tool_errors,
          pre_answer_processing_seconds: f.pre_answer_processing_seconds,
          output_chars_per_s: f.output_chars_per_s,
          tools_used: f.tools_used,
          error_retryable: errorRetryable,
          error_model: errorModel,
          chat_session_id: chatSessionId,
          message_id: messageId,
          unknown_parts: unknownParts,
          ...(unknownParts > 0 ? { unknown_part_kinds: { ...unknownKinds } } : {}),
          decode_errors: decodeErrors,
          answered_models: null,
          models: null,
        };
      }
      const common = {
        outcome,
        error_code: errorCode,
        error_message: errorMessage,
        error_retryable: errorRetryable,
        error_model: errorModel,
        ttfp_ms: rel(firstPart),
        total_ms: rel(t),
        parts,
        chat_session_id: chatSessionId,
        message_id: null,
        unknown_parts: unknownParts,
        ...(unknownParts > 0 ? { unknown_part_kinds: { ...unknownKinds } } : {}),
        decode_errors: decodeErrors,
        answered_models: answeredSingle ? 1 : null,
      };
      const dropped = requestOtherPackets > 0 ? { first_packet_others: requestOtherPackets } : {};
      return { ...multiTotals(figures, rel, requestFirstPacket), ...dropped, ...common, models: figures };
    },
  };
}

function newModel(index: number): ModelState {
  return {
    index,
    name: null,
    outcome: undefined,
    errorCode: null,
    errorMessage: null,
    retryable: null,
    errorModel: null,
    tainted: false,
    firstPart: undefined,
    firstAnswer: undefined,
    lastAnswer: 0,
    firstCitation: undefined,
    end: undefined,
    firstPacket: {},
    firstPacketSize: { n: 0 },
    otherPackets: 0,
    lastType: undefined,
    lastNoted: true,
    gaps: [],
    parts: 0,
    answerDeltas: 0,
    answerChars: 0,
    firstDeltaChars: 0,
    answer: [],
    answerUpper: 0,
    answerBytes: -1,
    answerTruncated: false,
    citations: [],
    topDocumentIds: [],
    topDocuments: [],
    links: new Map(),
    reasoningChars: 0,
    toolErrors: 0,
    preAnswerSeconds: null,
    messageId: null,
    tools: [],
  };
}

function stopModel(m: ModelState, t: number): void {
  if (m.outcome !== undefined) return;
  m.outcome = m.answerDeltas > 0 ? 'ok' : 'empty_answer';
  if (m.outcome === 'empty_answer') m.errorMessage = 'the answer reached stop with no answer text';
  m.end = t;
}

type PacketObj = Extract<StreamPart, { kind: 'packet' }>['part']['obj'];
interface Doc {
  document_id: string;
  link?: string | null;
}

function rememberLinks(m: ModelState, docs: readonly Doc[] | null | undefined): void {
  if (docs == null) return;
  for (const d of docs) {
    const link = d.link?.trim();
    if (link && link.length <= RECORD_BOUNDS.messageChars && !m.links.has(link) && m.links.size < MAX_LINKS)
      m.links.set(link, id(d.document_id));
  }
}

/** One piece of answer text (a `message_delta`, or a `pydantic_ai` text part): empty pieces count nothing. */
function answerText(m: ModelState, content: string, t: number, maxAnswerBytes: number): void {
  if (content === '') return;
  if (m.answerDeltas > 0 && m.gaps.length < RECORD_BOUNDS.gaps) m.gaps.push(t - m.lastAnswer);
  m.firstAnswer ??= t;
  m.lastAnswer = t;
  m.answerDeltas++;
  const chars = HIGH_SURROGATE.test(content) ? codePoints(content) : content.length;
  if (m.answerDeltas === 1) m.firstDeltaChars = chars;
  m.answerChars += chars;
  keepAnswer(m, content, maxAnswerBytes);
}

function foldObj(
  m: ModelState,
  obj: PacketObj,
  placement: { sub_turn_index?: number | null | undefined },
  t: number,
  maxAnswerBytes: number,
  keepDocuments: boolean,
): void {
  switch (obj.type as string) {
    case 'message_delta':
      answerText(m, (obj as { content: string }).content, t, maxAnswerBytes);
      return;
    case 'pydantic_ai': {
      const said = agentEventText(obj as { event?: unknown; phase?: unknown }, placement);
      if (said?.kind === 'answer') answerText(m, said.text, t, maxAnswerBytes);
      else if (said?.kind === 'reasoning') m.reasoningChars += said.text.length;
      return;
    }
    case 'citation_info': {
      const { citation_number, document_id } = obj as { citation_number: number; document_id: string };
      if (m.citations.length < RECORD_BOUNDS.listItems)
        m.citations.push({ citation_number, document_id: id(document_id) });
      m.firstCitation ??= t;
      return;
    }
    case 'message_start':
    case 'answer_metadata': {
      const start = obj as {
        final_documents?: Array<Doc & DocumentLike> | null;
        pre_answer_processing_seconds?: number | null;
      };
      if (start.final_documents != null) {
        m.topDocumentIds = start.final_documents.map((d) => d.document_id);
        // Only when the record keeps them: the parsed documents held until the answer ends outlive
        // the young generation (~7 KB a request promoted, then marked and compacted; thousands of
        // load streams, docs/benchmarks-log.md "Session 44"), where a load run's record drops them.
        if (keepDocuments) m.topDocuments = start.final_documents;
        rememberLinks(m, start.final_documents);
      }
      if (start.pre_answer_processing_seconds != null) m.preAnswerSeconds = start.pre_answer_processing_seconds;
      return;
    }
    case 'search_tool_documents_delta':
    case 'open_url_documents':
      rememberLinks(m, (obj as { documents?: Doc[] | null }).documents);
      return;
    case 'intermediate_report_cited_docs':
      rememberLinks(m, (obj as { cited_docs?: Doc[] | null }).cited_docs);
      return;
    case 'reasoning_delta':
      m.reasoningChars += (obj as { reasoning: string }).reasoning.length;
      return;
    case 'error':
      m.toolErrors++;
      return;
    case 'stop':
      stopModel(m, t);
      return;
    case 'search_tool_start':
    case 'custom_tool_start':
      useTool(m, toolOfPacket(obj as { type: string }));
      return;
    default:
      useTool(m, TOOL_START_PACKETS[obj.type as string]);
  }
}

function useTool(m: ModelState, tool: string | undefined): void {
  if (tool === undefined || m.tools.length >= RECORD_BOUNDS.listItems) return;
  const name = id(tool);
  if (!m.tools.includes(name)) m.tools.push(name);
}

/**
 * Keeps `content` while the answer stays within `max` UTF-8 bytes; cuts at a character boundary.
 * While 3 bytes a UTF-16 unit cannot pass the cap (every answer but the longest), nothing is
 * counted: a push a delta. From the delta that could pass it on, bytes are counted exactly. (The
 * upper bound was once added as if it were the count: an ASCII answer was cut at a third of the cap.)
 */
function keepAnswer(m: ModelState, content: string, max: number): void {
  if (m.answerTruncated) return;
  if (m.answerBytes < 0) {
    if (m.answerUpper + content.length * 3 <= max) {
      m.answer.push(content);
      m.answerUpper += content.length * 3;
      return;
    }
    m.answerBytes = Buffer.byteLength(m.answer.join(''), 'utf8');
  }
  const bytes = Buffer.byteLength(content, 'utf8');
  if (m.answerBytes + bytes <= max) {
    m.answer.push(content);
    m.answerBytes += bytes;
    return;
  }
  const kept = cutUtf8(content, max - m.answerBytes);
  if (kept !== '') m.answer.push(kept);
  m.answerTruncated = true;
}

function settle(
  m: ModelState,
  t: number,
  failure: Failure | undefined,
  empty: boolean,
  decodeReason: string | null,
): void {
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
      m.errorMessage = 'the stream ended without stop or a streaming error';
    }
  }
  if (
    m.tainted &&
    worseOutcome(m.outcome, 'invalid_response') === 'invalid_response' &&
    m.outcome !== 'invalid_response'
  ) {
    m.outcome = 'invalid_response';
    m.errorCode = null;
    m.errorMessage = `a part could not be decoded: ${decodeReason ?? 'unknown'}`;
  }
}

function modelFigures(
  m: ModelState,
  rel: (x: number | undefined) => number | null,
  multi: boolean,
  keepDocuments: boolean,
): UnscoredModelFigures {
  const answer = m.answer.join('');
  const span = m.firstAnswer !== undefined && m.answerDeltas > 0 ? m.lastAnswer - m.firstAnswer : 0;
  const { marker_citations, markers_without_citation } = resolveMarkers(
    m.answerDeltas > 0 ? answer : null,
    m.citations,
    m.links,
  );
  const cited = citedDocumentIds(m.citations, marker_citations);
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
    time_per_delta_ms: m.answerDeltas >= 2 ? roundMs(span / (m.answerDeltas - 1)) : null,
    first_packet_ms: relativeTimes(m.firstPacket, rel),
    ...(m.otherPackets > 0 ? { first_packet_others: m.otherPackets } : {}),
    answer_gaps_ms: m.gaps.map(roundMs),
    parts: m.parts,
    answer_deltas: m.answerDeltas,
    answer_chars: m.answerChars,
    answer: m.answerDeltas > 0 ? answer : null,
    answer_truncated: m.answerTruncated,
    citations: m.citations,
    marker_citations,
    cited_document_ids: cited,
    top_document_ids: m.topDocumentIds,
    top_documents: keepDocuments ? boundDocuments(m.topDocuments, cited) : [],
    markers_without_citation,
    reasoning_chars: m.reasoningChars,
    tool_errors: m.toolErrors,
    pre_answer_processing_seconds: m.preAnswerSeconds,
    output_chars_per_s:
      m.answerDeltas >= 2 && span > 0 ? roundMs((m.answerChars - m.firstDeltaChars) / (span / 1000)) : null,
    tools_used: [...m.tools],
    message_id: m.messageId,
    scores: null,
  };
}

/** Each packet type's first time, relative to `sent` (the map's own keys, in its order). */
function relativeTimes(
  firstPacket: Record<string, number>,
  rel: (x: number | undefined) => number | null,
): Record<string, number> {
  const times: Record<string, number> = {};
  for (const type of Object.keys(firstPacket)) times[type] = rel(firstPacket[type]) as number;
  return times;
}

function multiTotals(
  figures: readonly UnscoredModelFigures[],
  rel: (x: number | undefined) => number | null,
  firstPacket: Record<string, number>,
) {
  const earliest = (pick: (f: UnscoredModelFigures) => number | null) =>
    figures.reduce<number | null>((min, f) => {
      const v = pick(f);
      return v !== null && (min === null || v < min) ? v : min;
    }, null);
  const sum = (pick: (f: UnscoredModelFigures) => number) => figures.reduce((total, f) => total + pick(f), 0);
  return {
    ttft_ms: earliest((f) => f.ttft_ms),
    first_citation_ms: earliest((f) => f.first_citation_ms),
    time_per_delta_ms: null,
    first_packet_ms: relativeTimes(firstPacket, rel),
    answer_gaps_ms: [],
    answer_deltas: sum((f) => f.answer_deltas),
    answer_chars: sum((f) => f.answer_chars),
    answer: null,
    answer_truncated: figures.some((f) => f.answer_truncated),
    citations: [],
    marker_citations: [],
    cited_document_ids: [],
    top_document_ids: [],
    top_documents: [],
    markers_without_citation: [],
    reasoning_chars: sum((f) => f.reasoning_chars),
    tool_errors: sum((f) => f.tool_errors),
    pre_answer_processing_seconds: null,
    output_chars_per_s: null,
    tools_used: [...new Set(figures.flatMap((f) => f.tools_used))],
  };
}

/** A string without a high surrogate has as many code points as UTF-16 units: the common case, tested natively. */
const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/** Code points of `text` (what `[...text].length` counts, without building the array): full-response.ts too. */
export function countCodePoints(text: string): number {
  return HIGH_SURROGATE.test(text) ? codePoints(text) : text.length;
}

function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
