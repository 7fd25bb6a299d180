/**
 * @module judge/pipeline
 * Judges answers while the evaluation runs, apart from it: every ask goes through one queue of
 * `concurrency` calls (p-limit), never on the service's request path, so no timing of the service
 * is touched. Per answer and figure: the input (inputs.ts) or why the figure is N/A; per ask
 * (`repeat` of them), the cache first, then the judge; the verdict is the mean of the asks that
 * answered, judge_error when none did. Nothing here throws for what the judge does.
 */
import pLimit from 'p-limit';
import { verdictKindOf, type JudgeTask } from '../api/judge.js';
import type { JudgeFigure, Judgement, JudgeVerdict } from '../records/quality.js';
import type { VerdictCache } from './cache.js';
import { verdictKey } from './cache.js';
import type { JudgeClient } from './client.js';
import { judgeInput, type FetchedPages, type JudgedAnswer, type QuestionContext } from './inputs.js';
import type { Prompts } from './prompts.js';

export interface JudgeOptions {
  client: JudgeClient;
  cache: VerdictCache;
  prompts: Prompts;
  promptVersion: string;
  /** The figures asked, in this order. */
  figures: readonly JudgeFigure[];
  /** Asks per figure (--judge-repeat), ≥ 1. */
  repeat: number;
  /** Calls in flight at once (--judge-concurrency). */
  concurrency: number;
  /** --fetch-cited: the page text of these links (fetched once per run); absent → blurbs and highlights only. */
  fetchPages?: (links: readonly string[]) => Promise<FetchedPages>;
  /** Aborting ends the asks in flight (their figures become judge_error "cancelled"). */
  signal?: AbortSignal;
}

/** What the judge did over a run. */
export interface JudgeStats {
  /** Asks answered from the cache. */
  cached: number;
  /** Calls made to the judge endpoint (tries included). */
  calls: number;
  /** Asks that ended without a verdict. */
  failed: number;
  /** The first failure's text, for the run's closing line. */
  first_error: string | null;
}

export interface Judge {
  /** The answer's judgement; resolves once every ask has ended. */
  judge(answer: JudgedAnswer, context: QuestionContext): Promise<Judgement>;
  stats(): JudgeStats;
}

type AskOutcome = { score: number; reason: string | null; cached: boolean } | { error: string };

export function createJudge(options: JudgeOptions): Judge {
  const limit = pLimit(Math.max(1, options.concurrency));
  const stats: JudgeStats = { cached: 0, calls: 0, failed: 0, first_error: null };
  const model = options.client.model;

  /** Asks in flight by cache key: two answers with the same text (two repeats, two models) share one call. */
  const inflight = new Map<string, Promise<AskOutcome>>();
  const askOnce = (task: JudgeTask, user: string, ask: number): Promise<AskOutcome> => {
    const key = verdictKey({ model, promptVersion: options.promptVersion, task, input: user, ask });
    let pending = inflight.get(key);
    if (pending === undefined) {
      pending = askUncached(task, user, key).finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  };
  const askUncached = async (task: JudgeTask, user: string, key: string): Promise<AskOutcome> => {
    const hit = await options.cache.get(key);
    if (hit !== undefined) {
      stats.cached += 1;
      return { ...hit, cached: true };
    }
    const result = await limit(() =>
      options.client.ask({ system: options.prompts[task], user, kind: verdictKindOf(task) }, options.signal),
    );
    stats.calls += result.attempts;
    if (!result.ok) {
      stats.failed += 1;
      stats.first_error ??= result.error;
      return { error: result.error };
    }
    await options.cache.set(key, { score: result.score, reason: result.reason });
    return { score: result.score, reason: result.reason, cached: false };
  };

  const verdictOf = async (
    figure: JudgeFigure,
    answer: JudgedAnswer,
    context: QuestionContext,
    pages: FetchedPages,
  ): Promise<JudgeVerdict> => {
    const made = judgeInput(figure, answer, context, pages);
    if ('skip' in made)
      return { status: 'not_applicable', score: null, reason: made.skip, error: null, asks: [], cached: 0 };
    const user = JSON.stringify(made.input, null, 2);
    const outcomes = await Promise.all(
      Array.from({ length: Math.max(1, options.repeat) }, (_, i) => askOnce(figure, user, i)),
    );
    const answered = outcomes.filter((o): o is Extract<AskOutcome, { score: number }> => 'score' in o);
    const asks = outcomes.map((o) => ('score' in o ? o.score : null));
    const cached = answered.filter((o) => o.cached).length;
    if (answered.length === 0) {
      const error = outcomes.find((o): o is { error: string } => 'error' in o)?.error ?? 'no verdict';
      return { status: 'judge_error', score: null, reason: null, error, asks, cached };
    }
    const score = answered.reduce((sum, o) => sum + o.score, 0) / answered.length;
    return { status: 'ok', score, reason: answered[0]?.reason ?? null, error: null, asks, cached };
  };

  return {
    async judge(answer, context) {
      const links = options.fetchPages ? citedLinks(answer) : [];
      const pages =
        links.length > 0 && options.fetchPages ? await options.fetchPages(links) : new Map<string, string>();
      const verdicts = await Promise.all(
        options.figures.map(async (figure) => [figure, await verdictOf(figure, answer, context, pages)] as const),
      );
      return { model, prompt_version: options.promptVersion, verdicts: Object.fromEntries(verdicts) };
    },
    stats: () => ({ ...stats }),
  };
}

/** Links of the documents the answer cites (each once), for --fetch-cited. */
function citedLinks(answer: JudgedAnswer): string[] {
  const cited = new Set(answer.citations.map((c) => c.document_id));
  const links = answer.top_documents
    .filter((d) => cited.has(d.document_id) && d.link !== null)
    .map((d) => d.link as string);
  return [...new Set(links)];
}
