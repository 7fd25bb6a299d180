/**
 * @module sim/judge/route
 * POST /v1/chat/completions, at the simulator's root (beside, not under, the service's base path):
 * an OpenAI-compatible endpoint answering as a judge model by the rules of rules.ts, so that the
 * demo, the tests and a dry run exercise the whole judge path offline. Latency, a seeded error and
 * 429 rate and forced replies (triggers) come from the config's "judge" section. Replies are
 * deterministic: the same seed and the same asks give the same verdicts and the same faults,
 * whatever the order asks arrive in (each ask's draws come from its input and its occurrence).
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { ChatCompletionRequestSchema, JudgeInputSchema, type ChatMessage } from '../../api/judge.js';
import { SIM_JUDGE_MODEL } from '../../api/sim-judge.js';
import { triggerMatcher } from '../chat/config.js';
import { readBody, sendJson } from '../http.js';
import { createRng, sampleLogNormal } from '../rng.js';
import type { RouteContext } from '../route.js';
import type { SimJudgeConfig } from './config.js';
import { judgeByRules } from './rules.js';

export interface SimJudgeOptions {
  readonly config: SimJudgeConfig;
  readonly seed: number;
  /** chat.time_scale: multiplies the latency. */
  readonly timeScale: number;
  readonly maxBodyBytes: number;
  readonly now: () => number;
}

export interface SimJudge {
  handle(ctx: RouteContext): Promise<void>;
  /** Cancels the replies still waiting for their latency. */
  close(): void;
}

const openAiError = (
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  headers: Record<string, string> = {},
) => sendJson(res, status, { error: { message, type, param: null, code: null } }, { headers });

const textOf = (message: ChatMessage | undefined): string =>
  typeof message?.content === 'string'
    ? message.content
    : (message?.content ?? []).map((part) => part.text ?? '').join('');

export function createSimJudge(options: SimJudgeOptions): SimJudge {
  const { config } = options;
  const triggers = config.triggers.map((t) => ({ ...t, test: triggerMatcher(t.match) }));
  const occurrences = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();

  const later = (ms: number, reply: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      reply();
    }, ms);
    timers.add(timer);
  };

  async function handle(ctx: RouteContext): Promise<void> {
    const { req, res } = ctx;
    if (config.token !== null && req.headers.authorization !== `Bearer ${config.token}`) {
      return openAiError(res, 401, 'Incorrect API key provided.', 'invalid_request_error');
    }
    const body = await readBody(req, options.maxBodyBytes);
    if (body.kind === 'aborted') return;
    if (body.kind === 'too_large') return openAiError(res, 413, 'Request body too large.', 'invalid_request_error');
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch {
      return openAiError(res, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error');
    }
    const parsed = ChatCompletionRequestSchema.safeParse(json);
    if (!parsed.success)
      return openAiError(
        res,
        400,
        `Invalid request: ${parsed.error.issues[0]?.path.join('.') ?? 'body'}: ${parsed.error.issues[0]?.message ?? ''}`,
        'invalid_request_error',
      );
    const request = parsed.data;
    const user = textOf([...request.messages].reverse().find((m) => m.role === 'user'));
    const digest = createHash('sha256').update(user).digest('hex');
    const occurrence = occurrences.get(digest) ?? 0;
    occurrences.set(digest, occurrence + 1);
    const rng = createRng(options.seed, 'judge', digest, occurrence);
    const delay =
      sampleLogNormal(rng, {
        median: Math.max(config.latency_ms.median, 1e-6),
        p99: Math.max(config.latency_ms.p99, 1e-6),
      }) * options.timeScale;
    const trigger = triggers.find((t) => t.test(user) && (t.times === undefined || occurrence < t.times));
    const fault =
      trigger?.reply ??
      (rng.chance(config.error_rate) ? 'http_500' : rng.chance(config.rate_limit_rate) ? 'http_429' : null);
    const noise = (rng.next() * 2 - 1) * config.noise;

    later(delay, () => {
      if (res.destroyed) return;
      if (fault === 'http_429') {
        return openAiError(res, 429, 'Rate limit reached for requests. Please try again later.', 'requests', {
          'retry-after': String(config.retry_after_s),
        });
      }
      if (fault === 'http_500' || fault === 'http_503') {
        return openAiError(
          res,
          fault === 'http_500' ? 500 : 503,
          'The server had an error while processing your request.',
          'server_error',
        );
      }
      const content =
        fault === 'no_verdict'
          ? 'I have looked at the answer carefully and it seems mostly fine to me.'
          : verdictText(
              user,
              noise,
              fault === 'prose' || !config.structured_output || request.response_format === undefined,
            );
      sendJson(
        res,
        200,
        completion(request.model === '' ? SIM_JUDGE_MODEL : request.model, content, digest, occurrence, options.now()),
      );
    });
  }

  return {
    handle,
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** The verdict as a model would write it: bare JSON, or (prose) a sentence and a fenced block. */
function verdictText(user: string, noise: number, prose: boolean): string {
  let input;
  try {
    input = JudgeInputSchema.parse(JSON.parse(user));
  } catch {
    return 'I can only judge the inputs chatbench sends: a JSON object with a task, a question and an answer.';
  }
  const verdict = judgeByRules(input);
  const score = Math.round(Math.min(1, Math.max(0, verdict.score + noise)) * 100) / 100;
  const json =
    input.task === 'rubric'
      ? JSON.stringify({ pass: noise !== 0 ? score >= 0.5 : verdict.pass === true, reason: verdict.reason })
      : JSON.stringify({ score, reason: verdict.reason });
  return prose ? `Here is my verdict.\n\n\`\`\`json\n${json}\n\`\`\`\n` : json;
}

function completion(model: string, content: string, digest: string, occurrence: number, nowMs: number) {
  return {
    id: `chatcmpl-${digest.slice(0, 24)}${occurrence}`,
    object: 'chat.completion',
    created: Math.floor(nowMs / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}
