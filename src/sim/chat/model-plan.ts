/**
 * @module sim/chat/model-plan
 * One model's part of a response as a timeline: every packet it sends and when (milliseconds after
 * the request started, already multiplied by time_scale). Timing is drawn from the model's own
 * timing Rng and profile:
 *   the tools at 0, each in its tab (tool-plan.ts; by default one internal search: search_tool_start,
 *   queries, v4.3+ the filter delta) → each tool's result and section_end when it is done (the
 *   first search after pre_answer_ms) → first_token_ms (plus history_ms_per_token per token of the
 *   session's history) after the last tool the reasoning (if the profile reasons) or the answer:
 *   message_start and the first delta together, then one token every token_ms; a citation_info
 *   goes out with the marker it precedes → stop (or the streaming error where a failing model stops).
 * Deep research (the request's `deep_research`) is longer and paced (deep-research.ts).
 * Every packet is written as the configured release writes it (releases.ts): its placement, its
 * message_start, its errors.
 */
import { pyFloat, type PyRaw } from '../encode/index.js';
import type { ModelProfile } from '../profiles.js';
import { releaseTraits, type ReleaseTraits } from '../releases.js';
import { createRng, sampleLogNormal, type Rng } from '../rng.js';
import type { Retrieval } from './retrieval.js';
import { toolDuration, toolPackets, type ToolCall } from './tool-plan.js';
import type { Answer } from './answer.js';
import { isRetryable } from './config.js';
import { planDeepResearch, type DeepResearchInput } from './deep-research.js';
import { errorMessage, packet, streamingErrorPart, type WireDoc, type Where } from './parts.js';

/**
 * A part with its send time: either any part, or an answer `message_delta` kept as its model and
 * content (the line is templated when sent; deltas are also where mid-stream faults strike).
 */
export interface TimedPart {
  /** Milliseconds after the request started (scaled). */
  at: number;
  turn: number;
  part?: unknown;
  delta?: { model: number; content: string };
}

/**
 * What goes wrong with this model: a streaming error mid-answer (`error`, with its code), a tool
 * that fails (`tool`), an answer with no text (`empty`), or a refusal (`refusal`).
 */
export interface ModelFailure {
  code: string;
  /** not_found: the provider has no such model (an override naming one): the LLM call fails before any tool runs. */
  kind?: 'error' | 'tool' | 'empty' | 'refusal' | 'not_found';
}

export interface ModelPlanInput {
  modelIndex: number;
  multi: boolean;
  profile: ModelProfile;
  timing: Rng;
  answer: Answer;
  /** Reasoning tokens, or null when the profile does not reason. */
  reasoning: string[] | null;
  queries: string[];
  /** The SearchDocs the answer is given (message_start's final_documents), already encoded. */
  documents: PyRaw;
  /**
   * The message's tool calls, run in parallel in turn 0 (tool-plan.ts); default one internal
   * search of `queries` finding `documents`.
   */
  tools?: readonly ToolCall[];
  /** Durations of the tools other than the first search (default: drawn from `timing`'s own seed). */
  toolRng?: Rng;
  /** Tokens of the session's history: each adds the profile's history_ms_per_token to the time to the first token. */
  historyTokens?: number;
  timeScale: number;
  failure: ModelFailure | null;
  /** The release the simulator speaks (default: the newest). */
  traits?: ReleaseTraits;
  /** For the details of a streaming error. */
  modelName?: string;
  provider?: string | null;
  /** The request asked for deep research: the plan, the research agents, then the report. */
  deepResearch?: DeepResearchInput | null;
}

/** One internal search of the input's queries finding its documents: what a message used before tools were chosen. */
function defaultSearch(input: ModelPlanInput): ToolCall {
  return {
    tool: { id: 1, name: 'internal_search', kind: 'internal_search' }, tab: 0, args: { queries: input.queries }, result: null,
    retrieval: { queries: input.queries, documentsJson: input.documents } as Retrieval,
  };
}

/** What the model produced, for the full response and the token count. */
export interface ModelRun {
  steps: TimedPart[];
  /** Reasoning and answer tokens produced. */
  tokens: number;
  text: string;
  citationless: string;
  citations: Answer['citations'];
  reasoning: string | null;
  error: string | null;
  /** When the last part goes out (scaled ms). */
  endAt: number;
  /** The documents the answer was given (deep research: the cited ones), when not the retrieved list. */
  finalDocuments?: WireDoc[];
}

/** The streaming error of this model's failure, with the details its release writes. */
export function modelErrorPart(input: Pick<ModelPlanInput, 'modelIndex' | 'multi' | 'modelName' | 'provider' | 'traits'>, failure: ModelFailure) {
  const traits = input.traits ?? releaseTraits();
  const kind = failure.kind ?? 'error';
  let code = failure.code;
  let retryable = isRetryable(code);
  if (kind === 'refusal' || kind === 'empty') {
    code = kind === 'refusal' && traits.refusal ? 'MODEL_REFUSAL' : (traits.emptyAnswerCode ?? 'EMPTY_LLM_RESPONSE');
    retryable = code !== 'MODEL_REFUSAL';
  }
  if (kind === 'not_found') {
    // litellm's NotFoundError, classified by backend/onyx/llm/utils.py: NOT_FOUND, not retryable.
    code = 'NOT_FOUND';
    retryable = false;
  }
  if (kind === 'tool') {
    code = traits.toolFailureCode;
    retryable = true;
  } else if (traits.modelErrorsUnclassified) {
    code = 'MODEL_ERROR';
    retryable = true;
  }
  const model = { model: input.modelName ?? 'gpt-4o', provider: input.provider ?? null };
  let details: Record<string, unknown> | null = kind === 'tool' && !traits.toolErrorPacket && traits.toolFailureCode === 'TOOL_CALL_FAILED'
    ? { tool_name: 'internal_search' }
    : traits.detailsModelIndex ? { ...model, model_index: input.modelIndex } : input.multi ? null : model;
  if (traits.refusal && (kind === 'empty' || kind === 'refusal') && details !== null) {
    details = { ...details, tool_choice: 'auto', finish_reason: kind === 'refusal' ? 'content_filter' : 'stop' };
  }
  const message = kind === 'refusal' && traits.refusal
    ? 'The selected model declined to respond to this request and returned no content (finish_reason=content_filter). Try rephrasing the request or switching to a different model.'
    : kind === 'empty' || kind === 'refusal'
      ? 'The selected model returned no final answer before the stream completed. No text or tool calls were received from the upstream provider.'
      : kind === 'tool' ? 'Simulated tool failure: the search tool raised an error.'
        : kind === 'not_found' ? notFoundMessage(input.modelName ?? 'unknown', input.provider ?? null) : errorMessage(code);
  return { part: streamingErrorPart(message, code, details, retryable), message };
}

/** The service's text for a model its provider does not have (litellm's NotFoundError, prefixed by backend/onyx/llm/utils.py). */
function notFoundMessage(model: string, provider: string | null): string {
  const exception = provider === null || provider === 'openai' ? 'OpenAIException' : `${provider.charAt(0).toUpperCase()}${provider.slice(1)}Exception`;
  return `Resource not found: litellm.NotFoundError: ${exception} - The model \`${model}\` does not exist or you do not have access to it.`;
}

/** Lays one model's packets out in time. */
export function planModel(input: ModelPlanInput): ModelRun {
  if (input.deepResearch) return planDeepResearch(input, input.deepResearch);
  const { modelIndex, profile, timing, timeScale } = input;
  const traits = input.traits ?? releaseTraits();
  const steps: TimedPart[] = [];
  const push = (ms: number, turn: number, obj: { type: string; [key: string]: unknown }, where?: Where) =>
    steps.push({ at: ms * timeScale, part: packet(turn, modelIndex, obj, traits.placement, where), turn });
  const tokenGap = () => sampleLogNormal(timing, profile.token_ms);
  const failure = input.failure;
  const fail = (ms: number, f: ModelFailure) => {
    const { part, message } = modelErrorPart(input, f);
    steps.push({ at: ms * timeScale, part, turn: 1 });
    return message;
  };
  const done = (error: string | null, t: number): ModelRun => ({
    steps, tokens: 0, text: '', citationless: '', citations: [], reasoning: null, error, endAt: t * timeScale,
  });

  // The first LLM call (which tools to run) already fails: nothing else is sent for this model.
  if (failure?.kind === 'not_found') return done(fail(0, failure), 0);
  const calls = input.tools ?? [defaultSearch(input)];
  const toolRng = input.toolRng ?? createRng('tools');
  // Drawn first, as before there were other tools: the first search takes it (or the model's pause when no search runs).
  const searchMs = sampleLogNormal(timing, profile.pre_answer_ms);
  const failingTool = failure?.kind === 'tool';
  if (failingTool && !traits.toolErrorPacket) {
    // Before v3.2 a failing tool ends the stream in a streaming error.
    for (const call of calls) for (const p of toolPackets(call, searchMs, traits, false)) if (p.at === 0) push(0, 0, p.obj, { tab: call.tab });
    return done(fail(searchMs, failure!), 0);
  }
  let t = calls.length === 0 ? searchMs : 0;
  let searches = 0;
  for (const [i, call] of calls.entries()) {
    const search = call.tool.kind === 'internal_search' || call.tool.kind === 'web_search';
    const duration = toolDuration(call, searchMs, search && searches === 0, toolRng);
    if (search) searches += 1;
    // v3.2+: the failing tool's error packet, and the answer goes on from what the model knows.
    for (const p of toolPackets(call, duration, traits, failingTool && i === 0)) push(p.at, 0, p.obj, { tab: call.tab });
    t = Math.max(t, duration);
  }
  t += (input.historyTokens ?? 0) * profile.history_ms_per_token;
  t += sampleLogNormal(timing, profile.first_token_ms);
  let tokens = 0;
  if (input.reasoning !== null) {
    push(t, 1, { type: 'reasoning_start' });
    for (const reasoning of input.reasoning) {
      t += tokenGap();
      push(t, 1, { type: 'reasoning_delta', reasoning });
      tokens++;
    }
    t += tokenGap();
    push(t, 1, { type: 'reasoning_done' });
    t += tokenGap();
  }
  if (failure?.kind === 'empty' || failure?.kind === 'refusal') {
    const emptyStop = failure.kind === 'empty' ? traits.emptyAnswerCode === null : !traits.refusal && traits.emptyAnswerCode === null;
    if (emptyStop) {
      // Before v3.1 an answer with no text simply stops: nothing was said.
      push(t, 1, { type: 'stop', stop_reason: null });
      return { ...done(null, t), tokens };
    }
    return { ...done(fail(t, failure), t), tokens };
  }
  const seconds = Math.round(t * timeScale) / 1000;
  push(t, 1, traits.preAnswerSeconds
    ? { type: 'message_start', final_documents: input.documents, pre_answer_processing_seconds: pyFloat(seconds) }
    : { type: 'message_start', final_documents: input.documents });

  const segments = input.answer.segments;
  const tokenCount = segments.filter((s) => s.kind === 'token').length;
  const midAnswer = failure !== null && (failure.kind ?? 'error') === 'error';
  const cutAt = !midAnswer ? Infinity : Math.max(1, Math.floor(tokenCount * (0.25 + 0.5 * timing.next())));
  let text = '';
  let citationless = '';
  const citations: Answer['citations'] = [];
  let emitted = 0;
  let advanced = true; // the first delta goes out with message_start
  for (const segment of segments) {
    if (emitted >= cutAt) break;
    if (!advanced) t += tokenGap();
    if (segment.kind === 'citation') {
      push(t, 1, { type: 'citation_info', citation_number: segment.citation_number, document_id: segment.document_id });
      citations.push({ citation_number: segment.citation_number, document_id: segment.document_id });
      advanced = true; // the marker it precedes goes out at the same moment
      continue;
    }
    steps.push({ at: t * timeScale, turn: 1, delta: { model: modelIndex, content: segment.text } });
    advanced = false;
    emitted++;
    text += segment.text;
    if (!segment.marker) citationless += segment.text;
  }
  tokens += emitted;
  t += tokenGap();
  let error: string | null = null;
  if (midAnswer && failure !== null) error = fail(t, failure);
  else push(t, 1, { type: 'stop', stop_reason: null });
  const reasoning = input.reasoning === null ? null : input.reasoning.join('');
  return { steps, tokens, text, citationless, citations, reasoning, error, endAt: t * timeScale };
}
