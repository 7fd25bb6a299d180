/**
 * @module app/eval/assess-record
 * Everything that happens to a record between the runner and results.jsonl: its scores
 * (score-record), then — off the service's request path, while the run goes on — the judge's
 * verdicts and the user's checks on each answer, and last the pass rule over all of them. A judge
 * failure is judge_error on its figure and a check's failure that check's error: the record is
 * written either way, one line per planned request.
 *
 * The judge's calls stop when `abort()` is called (a second Ctrl-C, or the grace after the first):
 * their figures are judge_error "cancelled", and the records are still written.
 */
import { openUrls } from '../../client/open-urls-client.js';
import { redactDeep } from '../../client/redact.js';
import { checkContext } from '../../checks/context.js';
import type { CheckRunner } from '../../checks/runner.js';
import { createDiskCache, noCache } from '../../judge/cache.js';
import { createJudgeClient } from '../../judge/client.js';
import type { FetchedPages, QuestionContext } from '../../judge/inputs.js';
import { createJudge, type Judge, type JudgeStats } from '../../judge/pipeline.js';
import { loadPrompts, PROMPT_VERSION } from '../../judge/prompts.js';
import { applyPassRule, type PassRule } from '../../metrics/pass-rule.js';
import type { ExpectationsInput as Expectations } from '../../records/expectations.js';
import { JUDGE_FIGURES, type CheckResult, type JudgeFigure, type Judgement } from '../../records/quality.js';
import type { AnswerFigures, RequestRecord } from '../../records/record.js';
import type { UnscoredRecord } from '../../runner/index.js';
import { scoreRecord } from '../shared/score-record.js';

/** How the judge is reached and asked (the CLI's --judge flags). */
export interface JudgeSettings {
  /** Base URL of an OpenAI-compatible endpoint. */
  readonly url: string;
  readonly model: string;
  readonly token?: string | undefined;
  readonly figures: readonly JudgeFigure[];
  readonly repeat: number;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly retries: number;
  /** null: --no-judge-cache. */
  readonly cacheDir: string | null;
  readonly structuredOutput: 'auto' | 'off';
  /** --fetch-cited: the cited pages' text through the service's open-urls operation. */
  readonly fetchCited: boolean;
  /** --judge-max-reply-bytes; undefined: judge/client's DEFAULT_MAX_REPLY_BYTES. */
  readonly maxReplyBytes?: number | undefined;
}

export interface QualitySettings {
  readonly judge: JudgeSettings | null;
  readonly checks: CheckRunner | null;
  readonly passRule: PassRule;
}

/** The service, for --fetch-cited. */
export interface ServiceEndpoint {
  readonly baseUrl: string;
  readonly token?: string | undefined;
  readonly timeoutMs: number;
  /** Bytes of an open-urls answer read at most (undefined: client/json-request's default). */
  readonly maxBodyBytes?: number | undefined;
  /** Every secret of the run (client/redact.ts runSecrets): never sent to the judge or a check. */
  readonly secrets?: readonly string[] | undefined;
}

export interface Assessor {
  /** The record as results.jsonl gets it; never rejects for what the judge or a check does. */
  assess(record: UnscoredRecord, expectations: Expectations | undefined): Promise<RequestRecord>;
  /** Ends the judge's calls in flight (their figures become judge_error "cancelled"). */
  abort(): void;
  stats(): { judge: JudgeStats | null; pages_fetched: number };
}

/** The judged figures of `scores` from a judgement: a verdict's score when it has one, else N/A. */
function judgedScores(judgement: Judgement | null): Record<JudgeFigure, number | null> {
  return Object.fromEntries(
    JUDGE_FIGURES.map((f) => {
      const verdict = judgement?.verdicts[f];
      return [f, verdict?.status === 'ok' ? verdict.score : null];
    }),
  ) as Record<JudgeFigure, number | null>;
}

/** Page text by link, each link asked of open-urls once per run (a batch per answer). */
function createPageFetcher(
  service: ServiceEndpoint,
  signal: AbortSignal,
): { fetch: (links: readonly string[]) => Promise<FetchedPages>; count: () => number } {
  const pages = new Map<string, Promise<string | undefined>>();
  let fetched = 0;
  return {
    async fetch(links) {
      const missing = links.filter((link) => !pages.has(link));
      if (missing.length > 0) {
        fetched += missing.length;
        const batch = openUrls(
          {
            baseUrl: service.baseUrl,
            token: service.token,
            timeoutMs: service.timeoutMs,
            maxBodyBytes: service.maxBodyBytes,
            secrets: service.secrets,
          },
          missing,
          signal,
        );
        for (const link of missing) {
          pages.set(
            link,
            batch.then((r) => r.results.find((x) => x.unique_identifier_to_strip_away === link)?.content),
          );
        }
      }
      const out = new Map<string, string>();
      for (const link of links) {
        const content = await pages.get(link);
        if (content !== undefined) out.set(link, content);
      }
      return out;
    },
    count: () => fetched,
  };
}

export async function createAssessor(settings: QualitySettings, service: ServiceEndpoint): Promise<Assessor> {
  const controller = new AbortController();
  let judge: Judge | null = null;
  let fetcher: ReturnType<typeof createPageFetcher> | null = null;
  if (settings.judge !== null) {
    const j = settings.judge;
    fetcher = j.fetchCited ? createPageFetcher(service, controller.signal) : null;
    judge = createJudge({
      client: createJudgeClient({
        url: j.url,
        model: j.model,
        token: j.token,
        timeoutMs: j.timeoutMs,
        retries: j.retries,
        structuredOutput: j.structuredOutput,
        maxReplyBytes: j.maxReplyBytes,
        secrets: service.secrets,
      }),
      cache: j.cacheDir === null ? noCache : createDiskCache(j.cacheDir),
      prompts: await loadPrompts(),
      promptVersion: PROMPT_VERSION,
      figures: j.figures,
      repeat: j.repeat,
      concurrency: j.concurrency,
      signal: controller.signal,
      ...(fetcher ? { fetchPages: fetcher.fetch } : {}),
    });
  }

  const assessAnswer = async <F extends AnswerFigures>(
    figures: F,
    record: RequestRecord,
    expectations: Expectations,
    context: QuestionContext,
    model: { index: number; name: string | null } | null,
  ): Promise<F> => {
    const [judgement, checks] = await Promise.all([
      judge !== null && figures.outcome === 'ok' ? judge.judge(figures, context) : Promise.resolve(null),
      settings.checks !== null
        ? settings.checks.run(redactDeep(checkContext(record, figures, expectations, model), service.secrets ?? []))
        : Promise.resolve<Record<string, CheckResult>>({}),
    ]);
    if (figures.scores === null) return { ...figures, judge: judgement, checks };
    const scores = { ...figures.scores, ...judgedScores(judgement) };
    const verdict = applyPassRule(settings.passRule, { outcome: figures.outcome, scores, checks, judge: judgement });
    return {
      ...figures,
      judge: judgement,
      checks,
      scores: { ...scores, pass: verdict.pass, failed_conditions: verdict.failed, checked: verdict.checked },
    };
  };

  return {
    async assess(unscored, expectations) {
      const record = scoreRecord(unscored, expectations);
      if (
        expectations === undefined ||
        (judge === null && settings.checks === null && settings.passRule.conditions.length === 0)
      )
        return record;
      const context: QuestionContext = {
        question: record.question,
        reference_answer: expectations.reference_answer ?? null,
        rubric: expectations.rubric ?? null,
        expect_no_answer: expectations.expect_no_answer,
      };
      if (record.models === null) return assessAnswer(record, record, expectations, context, null);
      const models = await Promise.all(
        record.models.map((m) =>
          assessAnswer(m, record, expectations, context, { index: m.model_index, name: m.model_name }),
        ),
      );
      return { ...record, models };
    },
    abort: () => controller.abort(),
    stats: () => ({ judge: judge?.stats() ?? null, pages_fetched: fetcher?.count() ?? 0 }),
  };
}
