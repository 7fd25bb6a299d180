/**
 * @module sim/chat/engine
 * The send-chat-message operation of the simulated service. For each request it decides everything
 * up front from seeded randomness (fault, session id, retrieval, each model's answer and timeline),
 * then plays the result on the response through one shared scheduler. Randomness is derived from
 * the seed, the request's identity (its message, model overrides, citations flag and filters) and
 * how many times that same request was made before in the same mode, so concurrency and the order of other
 * requests do not change what a request gets: a plan run whole or in shards gets the same answers.
 * Message ids are a plain counter.
 *
 * Sessions (sessions.ts): a request without `chat_session_id` creates one; with it, it continues
 * that session of its user after `parent_message_id`, and its answer uses the history: the search
 * covers the last `sessions.history_turns` questions with the new message, the answer's identity
 * (so its randomness) includes the history, and the time to the first token grows by the profile's
 * `history_ms_per_token` per token of the history. An unknown or foreign session, or a parent not
 * in the session, is refused as the service refuses it (a streamed VALIDATION_ERROR; in full mode
 * the 400 "Message ID is required").
 *
 * Tools (tools.ts): the catalogue's tools the message picks run in parallel before the answer
 * (tool-plan.ts); searches give the answer its documents (a second search call cites from 101),
 * other tools a sentence of their result. A full response lists every call in `tool_calls`.
 */
import type { ServerResponse } from 'node:http';
import type { SendMessageRequestParsed } from '../../api/index.js';
import { MULTI_MODEL_REQUIRES_STREAM_DETAIL, SendMessageRequestSchema } from '../../api/index.js';
import type { Corpus } from '../corpus/index.js';
import { STREAM_CONTENT_TYPE } from '../encode/index.js';
import { mergeProfiles, resolveProfile, type ModelProfile, type ResolvedProfile } from '../profiles.js';
import { releaseTraits, type ReleaseTraits } from '../releases.js';
import { createRng, drawDelay } from '../rng.js';
import { PyRaw, dumps } from '../encode/index.js';
import {
  buildAnswer,
  buildReasoning,
  fitAnswerLength,
  joinAnswers,
  sentenceAnswer,
  tokenize,
  type Answer,
} from './answer.js';
import type { DeepResearchInput } from './deep-research.js';
import type { ChatConfig } from './config.js';
import { createFaultPicker, type FaultChoice } from './faults.js';
import { jsonHead, jsonSteps, planFull } from './full-plan.js';
import { planModel, type ModelFailure, type ModelRun } from './model-plan.js';
import {
  messageIdsPart,
  multiModelIdsPart,
  searchToolCall,
  sessionPart,
  streamingErrorPart,
  type WireDoc,
} from './parts.js';
import { createRetriever, warmRetrieval, type Retrieval } from './retrieval.js';
import {
  countTokens,
  createSessionStore,
  INVALID_SESSION,
  NOT_ON_MAINLINE,
  type Session,
  type StoredMessage,
} from './sessions.js';
import { toolCall, toolCallResponse, toolSentence, type ToolCall } from './tool-plan.js';
import { pickTools, retrievalTools, type Tool } from './tools.js';
import { createWebRetriever } from './web-search.js';
import { createScheduler } from './scheduler.js';
import { createStatsRecorder, type ChatStats } from './stats.js';
import { composeStream, type WireStep } from './stream-plan.js';
import { compilePlan, type WirePlan } from './wire-plan.js';
import { toAgentProtocol } from './agent-protocol.js';
import { playSteps, resetConnection, type ResponseHead } from './writer.js';

/** One request as the server hands it over. */
export interface ChatRequestContext {
  /** Already validated by the server (422s are the server's). */
  request: SendMessageRequestParsed;
  /** The authenticated user id, or 'anonymous'. */
  userId: string;
  /** Nothing written yet. */
  res: ServerResponse;
  /** Aborted when the client goes away: stop timers, write nothing more. */
  signal: AbortSignal;
  /** Tokens of the uploaded files the request attaches (`file_descriptors`): read into the prompt like history. */
  attachedTokens?: number;
}

export interface ChatEngine {
  /** Answers on ctx.res and ends it; resolves when done or the client left. Never rejects. */
  handle(ctx: ChatRequestContext): Promise<{ tokens: number }>;
  stats(): ChatStats;
  /** `POST /chat/create-chat-session`: an empty session of the user, its id drawn from the seed. */
  createSession(userId: string): string;
  /** Restarts the `send_lag_window_ms` window (e.g. once a benchmark's ramp is over). */
  restartLagWindow(): void;
  /** Clears every timer; requests in progress resolve and write nothing more. */
  close(): void;
  /**
   * Prepares (never plays) a few synthetic requests of every kind, so that the JIT has compiled the
   * whole request path. For a throwaway engine: it counts, draws and numbers as real requests do.
   */
  rehearse(): void;
}

export interface ChatEngineOptions {
  config: ChatConfig;
  seed: number;
  corpus: Corpus;
  /** The Onyx release to speak (default: the newest). */
  release?: ReleaseTraits;
}

/** A reply ready to play: the compiled plan and the tokens it charges. */
interface Play {
  kind: 'play';
  head: ResponseHead;
  plan: WirePlan;
  stream: boolean;
  tokens: number;
  /** The drawn handling before the first part (scaled ms): the plan plays from arrival + this. */
  firstPartMs: number;
}
type Reply = Play | { kind: 'reset' };

/** Set once an engine of this process rehearsed: what the JIT compiles stays compiled. */
let rehearsed = false;

/** Distinct requests remembered for occurrence counting before the memory is reset. */
const MAX_REMEMBERED_MESSAGES = 200_000;
const MAX_MODELS = 3;

/** Creates the engine. One per server; it owns a scheduler timer until close(). */
export function createChatEngine(options: ChatEngineOptions): ChatEngine {
  const { config, seed, corpus } = options;
  const traits = options.release ?? releaseTraits();
  const profiles = mergeProfiles(config.profiles);
  const stats = createStatsRecorder();
  const scheduler = createScheduler(stats.lag);
  const pickFault = createFaultPicker(config.faults);
  const retrieve = createRetriever(corpus, config, { fileId: traits.fileId });
  const searchWeb = createWebRetriever(corpus, config, { fileId: traits.fileId });
  const sessions = createSessionStore(config.sessions);
  const internalSearch: Tool = config.tools.find((t) => t.kind === 'internal_search') ?? {
    id: 1,
    name: 'internal_search',
    kind: 'internal_search',
  };
  const occurrences = new Map<string, number>();
  const inFlight = new Set<AbortController>();
  let nextId = config.first_message_id;
  let createdSessions = 0;

  const occurrence = (message: string): number => {
    if (occurrences.size >= MAX_REMEMBERED_MESSAGES) occurrences.clear();
    const n = occurrences.get(message) ?? 0;
    occurrences.set(message, n + 1);
    return n;
  };

  // Compiled before the first request: a cold request path would be paid by whoever asks first
  // (the first wave of a run measured the simulator's JIT, hundreds of milliseconds).
  warmRetrieval(corpus, config);
  if (!rehearsed) {
    rehearsed = true;
    const scratch = createChatEngine({ ...options, config: { ...config, faults: { rates: {}, triggers: [] } } });
    scratch.rehearse();
    scratch.close();
  }

  const play = async (ctx: ChatRequestContext, reply: Play, start: number): Promise<void> => {
    const controller = new AbortController();
    const forward = () => controller.abort();
    ctx.signal.addEventListener('abort', forward, { once: true });
    if (ctx.signal.aborted) controller.abort();
    inFlight.add(controller);
    if (reply.stream) stats.streamOpened();
    try {
      // A stream's headers go out when the request is accepted, as the service's StreamingResponse
      // sends them; a whole JSON body's go with it.
      await playSteps({
        res: ctx.res,
        signal: controller.signal,
        head: reply.head,
        plan: reply.plan,
        scheduler,
        start,
        flushHead: reply.stream && reply.head.status === 200,
      });
    } finally {
      if (reply.stream) stats.streamClosed();
      inFlight.delete(controller);
      ctx.signal.removeEventListener('abort', forward);
    }
  };
  const playing = (head: ResponseHead, steps: WireStep[], stream: boolean, tokens: number, firstPartMs = 0): Play => ({
    kind: 'play',
    head,
    plan: compilePlan(steps, config.framing, traits.placement),
    stream,
    tokens,
    firstPartMs,
  });

  /**
   * Decides the whole reply synchronously. Only the compiled plan outlives this call, so nothing
   * else of the request is kept alive while it plays (the session keeps the texts).
   */
  const prepare = (request: SendMessageRequestParsed, userId: string, attachedTokens = 0): Reply => {
    const message = request.message;
    const place = placeOf(request, userId);
    const history = place.kind === 'ok' ? place.history : [];
    // Content keys on the request without its mode, so streamed and full get the same answer;
    // the count keys on it with its mode, so each is the first of its kind in a plan.
    const identity = requestIdentity(request, history);
    const n = occurrence(`${request.stream}${identity}`);
    const faultRng = createRng(seed, 'fault', identity, n);
    const firstPartMs = drawDelay(createRng(seed, 'first-part', identity, n), config.ttfp_ms) * config.time_scale;
    // Before v3.2 the service does not know llm_overrides: it answers with its configured model.
    const overrides = traits.multiModel ? (request.llm_overrides ?? []) : [];
    if (overrides.length > 1 && !request.stream) {
      return playing(
        jsonHead(400),
        jsonSteps(0, { error_code: 'INVALID_INPUT', detail: MULTI_MODEL_REQUIRES_STREAM_DETAIL }),
        false,
        0,
        firstPartMs,
      );
    }
    const fault = pickFault(message, faultRng);
    if (fault !== null) stats.fault(fault.kind);
    if (fault?.kind === 'reset_before_headers') return { kind: 'reset' };
    if (fault?.kind === 'http_500' || fault?.kind === 'http_503') {
      const body = fault.kind === 'http_500' ? { detail: 'Internal Server Error' } : { detail: 'Service Unavailable' };
      return playing(jsonHead(fault.kind === 'http_500' ? 500 : 503), jsonSteps(0, body), false, 0, firstPartMs);
    }
    // A streamed and a full request share their identity and count: the full one's session is drawn apart, or they would collide.
    const sessionId =
      request.chat_session_id ?? createRng(seed, 'session', identity, n, ...(request.stream ? [] : ['full'])).uuid();
    const incognito = request.chat_session_info?.incognito ?? false;
    const prefix: unknown[] =
      request.chat_session_id == null ? [sessionPart(sessionId, incognito, traits.incognitoKey)] : [];
    const streamHead: ResponseHead = { status: 200, headers: { 'Content-Type': STREAM_CONTENT_TYPE } };
    const refuse = (error: string, retryable = false): Play => {
      stats.streamingError();
      const steps = [...prefix, streamingErrorPart(error, 'VALIDATION_ERROR', null, retryable)].map(
        (part): WireStep => ({ at: 0, part }),
      );
      return playing(streamHead, steps, true, 0, firstPartMs);
    };
    if (place.kind === 'refused') {
      // The service's ValueError before any message id: streamed, or the full response's 400.
      if (!request.stream)
        return playing(jsonHead(400), jsonSteps(0, { message: 'Message ID is required' }), false, 0, firstPartMs);
      if (request.chat_session_id != null) prefix.length = 0;
      return refuse(place.error, true);
    }
    if (overrides.length > MAX_MODELS)
      return refuse(`Multi-model mode supports at most ${MAX_MODELS} models; ${overrides.length} were given.`);
    if (overrides.length > 1 && request.deep_research) return refuse('Multi-model is not supported with deep research');
    const session = place.session ?? sessions.create(sessionId, userId);
    const models =
      overrides.length > 1
        ? overrides.map((o) => resolveProfile(profiles, o))
        : [resolveProfile(profiles, request.llm_override)];
    const userMessageId = nextId++;
    const messageIds = models.map(() => nextId++);
    remember(session, history, userMessageId, message, []);
    const prefixIds =
      models.length > 1
        ? multiModelIdsPart(
            userMessageId,
            models.map((m, i) => ({ message_id: messageIds[i] ?? 0, model_name: m.modelName })),
          )
        : messageIdsPart(userMessageId, messageIds[0] ?? 0);
    const toolCalls = models[0]?.profile.tool_calls ?? null;
    const choice = request.deep_research
      ? { tools: [internalSearch] }
      : toolCalls !== null && request.forced_tool_id == null
        ? { tools: retrievalTools(config.tools, request).slice(0, toolCalls) }
        : pickTools(config.tools, message, request);
    if ('error' in choice) {
      // The service checks a forced tool after the message ids: a streamed VALIDATION_ERROR, or a full response's error_msg.
      remember(
        session,
        history,
        userMessageId,
        message,
        messageIds.map((id) => ({ id, text: '' })),
      );
      if (!request.stream)
        return playFull(
          { ...EMPTY_RUN, error: choice.error },
          [],
          [],
          messageIds[0] ?? 0,
          request,
          sessionId,
          incognito,
          fault,
          0,
          firstPartMs,
        );
      prefix.push(prefixIds);
      return refuse(choice.error, true);
    }
    const historyText = lastQuestions(history, config.sessions.history_turns);
    const calls = choice.tools.map((tool, tab) =>
      toolCall(
        tool,
        tab,
        message,
        searchOf(tool, message, request, historyText),
        createRng(seed, 'tool', identity, n, tab),
      ),
    );
    const modelFault = fault !== null && MODEL_FAULTS.has(fault.kind);
    const failing =
      modelFault || (!request.stream && fault?.kind === 'unterminated_error')
        ? (fault?.modelIndex ?? (models.length > 1 ? faultRng.int(models.length) : 0))
        : -1;
    const historyTokens = history.reduce((sum, m) => sum + m.tokens, 0) + attachedTokens;
    const runs = models.map((model, i) =>
      runModel({
        model,
        i,
        multi: models.length > 1,
        message,
        identity,
        n,
        calls,
        request,
        fault,
        failing,
        historyTokens,
      }),
    );
    for (const run of runs) if (run.error !== null) stats.streamingError();
    remember(
      session,
      history,
      userMessageId,
      message,
      runs.map((run, i) => ({ id: messageIds[i] ?? 0, text: run.text })),
    );
    const tokens = runs.reduce((sum, run) => sum + run.tokens, 0);
    const first = runs[0] as ModelRun;
    if (!request.stream) {
      const documents = first.finalDocuments ?? documentsOf(calls);
      const toolCalls = request.deep_research
        ? [searchToolCall(calls[0]?.retrieval?.queries ?? [message], documents)]
        : calls.map(toolCallResponse);
      return playFull(
        first,
        documents,
        toolCalls,
        messageIds[0] ?? 0,
        request,
        sessionId,
        incognito,
        fault,
        tokens,
        firstPartMs,
      );
    }
    prefix.push(prefixIds);
    const steps = composeStream({
      prefix,
      models: runs.map((r) => r.steps),
      fault: fault?.kind ?? null,
      rng: faultRng,
      stallMs: config.stall_ms * config.time_scale,
      heartbeatMs: config.heartbeat_ms,
      framing: config.framing,
      style: traits.placement,
      heartbeats: traits.heartbeats,
    });
    const wire =
      config.packet_protocol === 'pydantic_ai'
        ? toAgentProtocol(steps, traits.placement, request.deep_research ? 'report' : 'chat')
        : steps;
    return playing(streamHead, wire, true, tokens, firstPartMs);
  };

  /** Where a request goes: its session (null: a new one) and the history before it, or the service's refusal. */
  const placeOf = (request: SendMessageRequestParsed, userId: string): Place => {
    const parent = request.parent_message_id ?? null;
    if (request.chat_session_id == null) {
      // A new session has no message to follow: -1 or null go at its root, anything else is not in it.
      return parent === null || parent === -1
        ? { kind: 'ok', session: null, history: [] }
        : { kind: 'refused', error: NOT_ON_MAINLINE };
    }
    const session = sessions.find(request.chat_session_id, userId);
    if (session === undefined) return { kind: 'refused', error: INVALID_SESSION };
    const history = sessions.history(session, parent);
    return history === undefined ? { kind: 'refused', error: NOT_ON_MAINLINE } : { kind: 'ok', session, history };
  };

  /** Stores the user message (after the history) and each model's answer to it; model 0's is the latest. */
  const remember = (
    session: Session,
    history: readonly StoredMessage[],
    userMessageId: number,
    message: string,
    answers: ReadonlyArray<{ id: number; text: string }>,
  ) => {
    if (answers.length === 0) {
      sessions.add(
        session,
        {
          id: userMessageId,
          parent: history.at(-1)?.id ?? null,
          role: 'user',
          text: message,
          tokens: countTokens(message),
        },
        true,
      );
      return;
    }
    answers.forEach((a, i) =>
      sessions.add(
        session,
        { id: a.id, parent: userMessageId, role: 'assistant', text: a.text, tokens: countTokens(a.text) },
        i === 0,
      ),
    );
  };

  /** A search tool's search: the knowledge base or the web pages, the follow-up's history with the message. */
  const searchOf = (
    tool: Tool,
    message: string,
    request: SendMessageRequestParsed,
    history: string,
  ): Retrieval | null => {
    if (tool.kind === 'internal_search') return retrieve(message, request.internal_search_filters, history);
    if (tool.kind === 'web_search') return searchWeb(message, history);
    return null;
  };

  const playFull = (
    run: ModelRun,
    documents: readonly WireDoc[],
    toolCalls: unknown[],
    messageId: number,
    request: SendMessageRequestParsed,
    sessionId: string,
    incognito: boolean,
    fault: FaultChoice | null,
    tokens: number,
    firstPartMs: number,
  ): Play => {
    // Before v4.0 a full response to a request that named its session leaves chat_session_id null.
    const fullSession = request.chat_session_id != null && !traits.fullSessionBackfill ? null : sessionId;
    const full = planFull({
      run,
      documents,
      toolCalls,
      messageId,
      sessionId: fullSession,
      incognito,
      withIncognito: traits.incognitoKey,
      fault: fault?.kind ?? null,
      stallMs: config.stall_ms * config.time_scale,
    });
    return playing(full.head, full.steps, false, tokens, firstPartMs);
  };

  interface RunInput {
    model: ResolvedProfile;
    i: number;
    multi: boolean;
    message: string;
    identity: string;
    n: number;
    calls: readonly ToolCall[];
    request: SendMessageRequestParsed;
    fault: FaultChoice | null;
    failing: number;
    historyTokens: number;
  }
  const runModel = ({
    model,
    i,
    multi,
    message,
    identity,
    n,
    calls,
    request,
    fault,
    failing,
    historyTokens,
  }: RunInput): ModelRun => {
    const deep = request.deep_research && !multi;
    // A deep-research report is longer: it uses every matching sentence the profile allows, up to six.
    const profile: ModelProfile = deep ? { ...model.profile, answer_sentences: 6 } : model.profile;
    const whole = answerOf(calls, profile, createRng(seed, 'answer', identity, n, i), request.include_citations, (k) =>
      createRng(seed, 'answer', identity, n, i, k),
    );
    const built = profile.answer_tokens === null ? whole : fitAnswerLength(whole, profile.answer_tokens);
    const searched = calls.find((c) => c.retrieval !== null)?.retrieval ?? null;
    const modelFails = createRng(seed, 'error', identity, n, i).chance(profile.error_rate);
    const failure: ModelFailure | null = !model.known
      ? { code: 'NOT_FOUND', kind: 'not_found' }
      : i === failing
        ? failureOf(fault)
        : modelFails
          ? { code: 'MODEL_ERROR' }
          : null;
    return planModel({
      modelIndex: i,
      multi,
      profile,
      timing: createRng(seed, 'timing', identity, n, i),
      answer: built,
      reasoning: profile.reasoning && !deep ? buildReasoning(message, searched?.hits ?? [], built.found) : null,
      queries: searched?.queries ?? [message.trim()],
      documents: documentsJsonOf(calls),
      timeScale: config.time_scale,
      failure,
      traits,
      modelName: model.modelName,
      provider: profile.provider,
      deepResearch: deep && searched !== null ? deepResearchOf(message, searched, corpus.organisation) : null,
      tools: calls,
      toolRng: createRng(seed, 'tools', identity, n, i),
      historyTokens,
    });
  };

  /**
   * The answer a model gives from its tool calls: the sentences of each search's documents (the
   * k-th search call cites from k·100 + 1), then a sentence per other tool's result; one search alone
   * answers exactly as before tools were chosen.
   */
  const answerOf = (
    calls: readonly ToolCall[],
    profile: ModelProfile,
    rng: ReturnType<typeof createRng>,
    includeCitations: boolean,
    rngFor: (k: number) => ReturnType<typeof createRng>,
  ): Answer => {
    const searches = calls.filter((c) => c.retrieval !== null);
    const parts: Answer[] = [];
    searches.forEach((call, k) => {
      const r = call.retrieval!;
      const part = buildAnswer({
        hits: r.hits,
        relevant: r.relevant,
        ranked: r.ranked,
        organisation: corpus.organisation,
        profile,
        rng: k === 0 ? rng : rngFor(k),
        includeCitations,
        firstCitationNumber: k * 100 + 1,
        continues: parts.length > 0,
      });
      if (part.found || (searches.length === 1 && calls.length === 1)) parts.push(part);
    });
    for (const call of calls) {
      const sentence = toolSentence(call);
      if (sentence !== null) parts.push(sentenceAnswer(sentence, parts.length > 0));
    }
    if (parts.length > 0) return joinAnswers(parts);
    return buildAnswer({
      hits: [],
      relevant: false,
      ranked: [],
      organisation: corpus.organisation,
      profile,
      rng,
      includeCitations,
    });
  };

  return {
    async handle(ctx) {
      // The plan plays from the request's arrival, not from when preparing it ended: how long this
      // process took to prepare it (a retrieval, a cache miss) is the simulator's business, never a
      // latency the client measures, as long as it fits in the drawn first-part delay.
      const arrived = performance.now();
      stats.request();
      let reply: Reply;
      try {
        reply = prepare(ctx.request, ctx.userId, ctx.attachedTokens);
      } catch {
        // A bug must not take the server down; answer as the deployed service does on an uncaught error.
        reply = playing(jsonHead(500), jsonSteps(0, { detail: 'Internal Server Error' }), false, 0, 0);
      }
      if (reply.kind === 'reset') {
        resetConnection(ctx.res);
        return { tokens: 0 };
      }
      await play(ctx, reply, arrived + reply.firstPartMs);
      return { tokens: reply.tokens };
    },
    stats: () => stats.snapshot(),
    createSession(userId) {
      const id = createRng(seed, 'created-session', createdSessions++).uuid();
      sessions.create(id, userId);
      return id;
    },
    restartLagWindow: () => stats.restartLagWindow(),
    rehearse() {
      const titles = corpus.documents.slice(0, 12).map((d) => `What does ${d.title} say?`);
      const overrides = [
        { model_provider: 'openai', model_version: 'gpt-4o-mini' },
        { model_provider: 'openai', model_version: 'gpt-4o' },
      ];
      titles.forEach((message, i) => {
        const kinds = [{ stream: true }, { stream: false }, { stream: true, llm_overrides: overrides }];
        prepare(SendMessageRequestSchema.parse({ message, ...kinds[i % kinds.length] }), REHEARSAL_USER);
      });
    },
    close() {
      for (const controller of inFlight) controller.abort();
      scheduler.close();
    },
  };
}

/** Who the rehearsal's requests come from (their sessions are forgotten like any, least recently used first). */
const REHEARSAL_USER = 'chatbench-rehearsal';

/** Faults that strike one model (the others of a multi-model request go on). */
const MODEL_FAULTS: ReadonlySet<string> = new Set(['streaming_error', 'tool_error', 'empty_answer', 'model_refusal']);

/** What the failing model does wrong, from the request's fault. */
function failureOf(fault: FaultChoice | null): ModelFailure {
  switch (fault?.kind) {
    case 'unterminated_error':
      return { code: 'UNKNOWN_ERROR' };
    case 'tool_error':
      return { code: 'TOOL_CALL_FAILED', kind: 'tool' };
    case 'empty_answer':
      return { code: 'EMPTY_LLM_RESPONSE', kind: 'empty' };
    case 'model_refusal':
      return { code: 'MODEL_REFUSAL', kind: 'refusal' };
    default:
      return { code: fault?.errorCode ?? 'MODEL_ERROR' };
  }
}

/** The plan and two research agents of a deep-research answer: the second searches again and finds the documents in another order. */
function deepResearchOf(message: string, retrieval: Retrieval, organisation: string): DeepResearchInput {
  const question = message.trim().replace(/\s+/g, ' ');
  const docs = retrieval.documents;
  const report = (found: typeof docs) =>
    tokenize(
      found.length === 0
        ? 'The search found nothing relevant.'
        : `The search found ${found.length} document${found.length === 1 ? '' : 's'}; the most relevant is "${found[0]?.semantic_identifier ?? ''}".`,
    );
  const rotated = docs.length > 1 ? [...docs.slice(1), docs[0]!] : [...docs];
  return {
    plan: tokenize(
      `1. Search the ${organisation} knowledge base for: "${question}". 2. Search again for the details. 3. Write the report, citing each source.`,
    ),
    agents: [
      {
        task: `What does the knowledge base say about: ${question}`,
        queries: [question],
        documents: docs,
        report: report(docs),
      },
      {
        task: `Details and exceptions for: ${question}`,
        queries: [`${question} details`],
        documents: rotated,
        report: report(rotated),
      },
    ],
  };
}

/**
 * What makes two requests ask the same thing: the same question of the same models with the same
 * filters and tools, after the same history (a follow-up's earlier messages).
 */
function requestIdentity(request: SendMessageRequestParsed, history: readonly StoredMessage[]): string {
  return JSON.stringify([
    request.message,
    request.llm_override ?? null,
    request.llm_overrides ?? null,
    request.include_citations,
    request.internal_search_filters ?? null,
    ...(request.deep_research ? ['deep_research'] : []),
    ...(request.allowed_tool_ids != null || request.forced_tool_id != null
      ? [request.allowed_tool_ids ?? null, request.forced_tool_id ?? null]
      : []),
    ...(history.length > 0 ? [history.map((m) => m.text)] : []),
  ]);
}

/** Where a request goes: an existing session or a new one (null), after its history; or the service's refusal. */
type Place = { kind: 'ok'; session: Session | null; history: StoredMessage[] } | { kind: 'refused'; error: string };

/** The last `turns` questions of a history, oldest first, as one text: what a follow-up searches with its message. */
function lastQuestions(history: readonly StoredMessage[], turns: number): string {
  if (turns === 0) return '';
  return history
    .filter((m) => m.role === 'user')
    .slice(-turns)
    .map((m) => m.text.trim())
    .join(' ');
}

/** The documents the answer is given: every search call's, in call order. */
function documentsOf(calls: readonly ToolCall[]): WireDoc[] {
  return calls.flatMap((c) => c.retrieval?.documents ?? []);
}

/** The same, encoded (one search's list is reused as it was encoded once). */
function documentsJsonOf(calls: readonly ToolCall[]): PyRaw {
  const searches = calls.filter((c) => c.retrieval !== null);
  if (searches.length === 1) return searches[0]!.retrieval!.documentsJson;
  return new PyRaw(dumps(documentsOf(calls)));
}

/** A model run that produced nothing (a refused forced tool). */
const EMPTY_RUN: ModelRun = {
  steps: [],
  tokens: 0,
  text: '',
  citationless: '',
  citations: [],
  reasoning: null,
  error: null,
  endAt: 0,
};
