/**
 * @module sim/chat/model-run
 * The shapes of one model's run that model-plan.ts (a model's answer) and deep-research.ts (a
 * deep-research answer) both lay out: the timed parts, the plan's input, the run it yields, and the
 * streaming error of a failing model. Apart from both planners so neither imports the other's shapes.
 */
import type { PyRaw } from '../encode/index.js';
import type { ModelProfile } from '../profiles.js';
import { releaseTraits, type ReleaseTraits } from '../releases.js';
import type { Rng } from '../rng.js';
import type { Answer } from './answer.js';
import { isRetryable } from './config.js';
import { errorMessage, streamingErrorPart, type WireDoc } from './parts.js';
import type { ToolCall } from './tool-plan.js';

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

/** One research agent: its task, the documents its search found (in rank order) and its report's tokens. */
export interface ResearchAgent {
  task: string;
  queries: string[];
  documents: WireDoc[];
  report: string[];
}

export interface DeepResearchInput {
  /** The research plan's tokens. */
  plan: string[];
  agents: ResearchAgent[];
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
export function modelErrorPart(
  input: Pick<ModelPlanInput, 'modelIndex' | 'multi' | 'modelName' | 'provider' | 'traits'>,
  failure: ModelFailure,
) {
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
  let details: Record<string, unknown> | null =
    kind === 'tool' && !traits.toolErrorPacket && traits.toolFailureCode === 'TOOL_CALL_FAILED'
      ? { tool_name: 'internal_search' }
      : traits.detailsModelIndex
        ? { ...model, model_index: input.modelIndex }
        : input.multi
          ? null
          : model;
  if (traits.refusal && (kind === 'empty' || kind === 'refusal') && details !== null) {
    details = { ...details, tool_choice: 'auto', finish_reason: kind === 'refusal' ? 'content_filter' : 'stop' };
  }
  const message =
    kind === 'refusal' && traits.refusal
      ? 'The selected model declined to respond to this request and returned no content (finish_reason=content_filter). Try rephrasing the request or switching to a different model.'
      : kind === 'empty' || kind === 'refusal'
        ? 'The selected model returned no final answer before the stream completed. No text or tool calls were received from the upstream provider.'
        : kind === 'tool'
          ? 'Simulated tool failure: the search tool raised an error.'
          : kind === 'not_found'
            ? notFoundMessage(input.modelName ?? 'unknown', input.provider ?? null)
            : errorMessage(code);
  return { part: streamingErrorPart(message, code, details, retryable), message };
}

/** The service's text for a model its provider does not have (litellm's NotFoundError, prefixed by backend/onyx/llm/utils.py). */
function notFoundMessage(model: string, provider: string | null): string {
  const exception =
    provider === null || provider === 'openai'
      ? 'OpenAIException'
      : `${provider.charAt(0).toUpperCase()}${provider.slice(1)}Exception`;
  return `Resource not found: litellm.NotFoundError: ${exception} - The model \`${model}\` does not exist or you do not have access to it.`;
}
