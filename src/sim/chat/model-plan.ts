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
import { pyFloat } from '../encode/index.js';
import { releaseTraits } from '../releases.js';
import { createRng, sampleLogNormal } from '../rng.js';
import type { Retrieval } from './retrieval.js';
import { toolDuration, toolPackets, type ToolCall } from './tool-plan.js';
import type { Answer } from './answer.js';
import { planDeepResearch } from './deep-research.js';
import { modelErrorPart, type ModelFailure, type ModelPlanInput, type ModelRun, type TimedPart } from './model-run.js';
import { packet, type Where } from './parts.js';

export { modelErrorPart, type ModelFailure, type ModelPlanInput, type ModelRun, type TimedPart } from './model-run.js';

/** One internal search of the input's queries finding its documents: what a message used before tools were chosen. */
function defaultSearch(input: ModelPlanInput): ToolCall {
  return {
    tool: { id: 1, name: 'internal_search', kind: 'internal_search' },
    tab: 0,
    args: { queries: input.queries },
    result: null,
    retrieval: { queries: input.queries, documentsJson: input.documents } as Retrieval,
  };
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
    steps,
    tokens: 0,
    text: '',
    citationless: '',
    citations: [],
    reasoning: null,
    error,
    endAt: t * timeScale,
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
    for (const call of calls)
      for (const p of toolPackets(call, searchMs, traits, false)) if (p.at === 0) push(0, 0, p.obj, { tab: call.tab });
    return done(fail(searchMs, failure!), 0);
  }
  let t = calls.length === 0 ? searchMs : 0;
  let searches = 0;
  for (const [i, call] of calls.entries()) {
    const search = call.tool.kind === 'internal_search' || call.tool.kind === 'web_search';
    const duration = toolDuration(call, searchMs, search && searches === 0, toolRng);
    if (search) searches += 1;
    // v3.2+: the failing tool's error packet, and the answer goes on from what the model knows.
    for (const p of toolPackets(call, duration, traits, failingTool && i === 0))
      push(p.at, 0, p.obj, { tab: call.tab });
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
    const emptyStop =
      failure.kind === 'empty' ? traits.emptyAnswerCode === null : !traits.refusal && traits.emptyAnswerCode === null;
    if (emptyStop) {
      // Before v3.1 an answer with no text simply stops: nothing was said.
      push(t, 1, { type: 'stop', stop_reason: null });
      return { ...done(null, t), tokens };
    }
    return { ...done(fail(t, failure), t), tokens };
  }
  const seconds = Math.round(t * timeScale) / 1000;
  push(
    t,
    1,
    traits.preAnswerSeconds
      ? { type: 'message_start', final_documents: input.documents, pre_answer_processing_seconds: pyFloat(seconds) }
      : { type: 'message_start', final_documents: input.documents },
  );

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
