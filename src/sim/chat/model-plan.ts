/**
 * @module sim/chat/model-plan
 * One model's part of a response as a timeline: every packet it sends and when (milliseconds after
 * the request started, already multiplied by time_scale). Timing is drawn from the model's own
 * timing Rng and profile:
 *   search_tool_start, queries at 0 → documents and section_end after pre_answer_ms →
 *   first_token_ms later the reasoning (if the profile reasons) or the answer: message_start and
 *   the first delta together, then one token every token_ms; a citation_info goes out with the
 *   marker it precedes → stop (or the streaming error where a failing model stops).
 */
import { pyFloat, type PyRaw } from '../encode/index.js';
import type { ModelProfile } from '../profiles.js';
import { sampleLogNormal, type Rng } from '../rng.js';
import type { Answer } from './answer.js';
import { errorMessage, packet, streamingErrorPart } from './parts.js';

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

export interface ModelPlanInput {
  modelIndex: number;
  multi: boolean;
  profile: ModelProfile;
  timing: Rng;
  answer: Answer;
  /** Reasoning tokens, or null when the profile does not reason. */
  reasoning: string[] | null;
  queries: string[];
  /** The retrieved SearchDocs, already encoded. */
  documents: PyRaw;
  timeScale: number;
  /** The model fails mid-answer with this error code. */
  failure: { code: string } | null;
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
}

/** Lays one model's packets out in time. */
export function planModel(input: ModelPlanInput): ModelRun {
  const { modelIndex, profile, timing, timeScale } = input;
  const steps: TimedPart[] = [];
  const push = (ms: number, turn: number, obj: { type: string; [key: string]: unknown }) =>
    steps.push({ at: ms * timeScale, part: packet(turn, modelIndex, obj), turn });
  const tokenGap = () => sampleLogNormal(timing, profile.token_ms);

  let t = 0;
  push(t, 0, { type: 'search_tool_start', is_internet_search: false });
  push(t, 0, { type: 'search_tool_queries_delta', queries: input.queries });
  t += sampleLogNormal(timing, profile.pre_answer_ms);
  push(t, 0, { type: 'search_tool_documents_delta', documents: input.documents });
  push(t, 0, { type: 'section_end' });
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
  const seconds = Math.round(t * timeScale) / 1000;
  push(t, 1, { type: 'message_start', final_documents: input.documents, pre_answer_processing_seconds: pyFloat(seconds) });

  const segments = input.answer.segments;
  const tokenCount = segments.filter((s) => s.kind === 'token').length;
  const cutAt = input.failure === null ? Infinity : Math.max(1, Math.floor(tokenCount * (0.25 + 0.5 * timing.next())));
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
  if (input.failure === null) push(t, 1, { type: 'stop', stop_reason: null });
  else {
    error = errorMessage(input.failure.code);
    steps.push({ at: t * timeScale, part: streamingErrorPart(error, input.failure.code, input.multi ? modelIndex : null), turn: 1 });
  }
  const reasoning = input.reasoning === null ? null : input.reasoning.join('');
  return { steps, tokens, text, citationless, citations, reasoning, error, endAt: t * timeScale };
}
